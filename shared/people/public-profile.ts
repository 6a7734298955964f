// What anyone who may see a person reads of them (spec: GET /profiles/{username}): the editable display
// fields, pictures and the current username, whichever name or alias was asked for, with the aliases
// themselves (DECISIONS: the former usernames a lookup still accepts). `private` follows DECISIONS
// ("private" = library visibility FOLLOWERS or PRIVATE), so a client knows a follow will be a request
// before it sends one.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { readProfile } from '../profiles/profile.js';

/**
 * The account's former usernames that still lead to it: aliases whose 30 days have not run out, the same
 * test the person lookup makes (visibility.ts personLookup), so every name listed finds the profile.
 * Newest first: an alias's end is its rename plus the same 30 days, so the latest end is the latest rename.
 */
export async function liveAliases(knex: Knex, accountId: string): Promise<string[]> {
  return knex('usernames')
    .where({ account_id: accountId, kind: 'alias' })
    .where('expires_at', '>', knex.fn.now())
    .orderBy([
      { column: 'expires_at', order: 'desc' },
      { column: 'name', order: 'asc' },
    ])
    .pluck('name');
}

export async function publicProfile(knex: Knex, account: Account, mediaUrl: (key: string) => string) {
  const [own, aliases] = await Promise.all([readProfile(knex, account, mediaUrl), liveAliases(knex, account.id)]);
  // The owner's own answer (GET /profile) carries updated_at; visitors get the account's age instead.
  const { updated_at: _updatedAt, ...profile } = own;
  return {
    ...profile,
    aliases,
    created_at: new Date(account.created_at).toISOString(),
    private: profile.library_visibility !== 'PUBLIC',
  };
}
