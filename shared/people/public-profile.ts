// What anyone who may see a person reads of them (spec: GET /profiles/{username}): the editable display
// fields, pictures and the current username, whichever name or alias was asked for. `private` follows
// DECISIONS ("private" = library visibility FOLLOWERS or PRIVATE), so a client knows a follow will be a
// request before it sends one.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { readProfile } from '../profiles/profile.js';

export async function publicProfile(knex: Knex, account: Account, mediaUrl: (key: string) => string) {
  // The owner's own answer (GET /profile) carries updated_at; visitors get the account's age instead.
  const { updated_at: _updatedAt, ...profile } = await readProfile(knex, account, mediaUrl);
  return {
    ...profile,
    created_at: new Date(account.created_at).toISOString(),
    private: profile.library_visibility !== 'PUBLIC',
  };
}
