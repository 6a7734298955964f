// Giving an account a role (DECISIONS: `npm run op -- staff <username> <member|moderator|admin>`). The
// operator acts from the command line, so the record in moderator_actions names no moderator.
import type { Knex } from 'knex';
import { Account, type Role } from '../accounts/account.js';
import { findByUsername } from '../accounts/usernames.js';
import { recordAction } from './moderator-actions.js';

export const ROLES: readonly Role[] = ['member', 'moderator', 'admin'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Sets the role of the account holding `username` (current name or alias); answers the previous one. */
export async function setRole(
  knex: Knex,
  username: string,
  role: Role,
): Promise<{ username: string; previous: Role; role: Role }> {
  const account = await findByUsername(knex, username);
  if (!account) throw new Error(`no account has the username "${username}"`);
  await knex.transaction(async (trx) => {
    await Account.query(trx).findById(account.id).patch({ role });
    await recordAction(trx, null, 'set_role', { kind: 'account', id: account.id }, { previous: account.role, role });
  });
  return { username: account.username!, previous: account.role, role };
}
