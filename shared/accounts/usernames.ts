// Usernames: availability, the first name, renames with a waiting period, and aliases that keep an old
// name pointing at its account (and away from everyone else) for 30 days. The `usernames` table holds
// every name in use, current or alias, so the database enforces that one name has one holder.
import type { Knex } from 'knex';
import { registerConstraint } from '../platform/db/database-errors.js';
import { conflict } from '../platform/errors.js';
import { Account } from './account.js';
import { Username } from './models.js';
import { aliasExpiry, isUsernameShape, nextChangeAt } from './username-rules.js';

const taken = () => conflict('username_taken', {}, 'This username is taken.');
registerConstraint('usernames_pkey', taken);
registerConstraint('usernames_name_ci', taken);
registerConstraint('accounts_username_unique', taken);

function live(row: Username | undefined, now = Date.now()): Username | undefined {
  if (!row) return undefined;
  return row.kind === 'alias' && row.expires_at!.getTime() <= now ? undefined : row;
}

async function holderOf(knex: Knex | Knex.Transaction, name: string): Promise<Username | undefined> {
  return live(await Username.query(knex).whereRaw('lower(name) = lower(?)', [name]).first());
}

/**
 * Free for this account: nobody holds it, or it is this account's own alias. Malformed names, of any
 * length, are never free, and never reach the database.
 */
export async function usernameAvailable(knex: Knex, name: string, accountId: string): Promise<boolean> {
  if (!isUsernameShape(name)) return false;
  const holder = await holderOf(knex, name);
  return !holder || (holder.kind === 'alias' && holder.account_id === accountId);
}

/** Takes `name` as the account's current name inside `trx` (an expired alias of it is cleared first). */
async function take(trx: Knex.Transaction, accountId: string, name: string): Promise<void> {
  await Username.query(trx).where({ name, kind: 'alias' }).where('expires_at', '<=', new Date()).delete();
  const holder = await holderOf(trx, name);
  if (holder && !(holder.kind === 'alias' && holder.account_id === accountId)) throw taken();
  if (holder) await Username.query(trx).deleteById(holder.name);
  await Username.query(trx).insert({ name, account_id: accountId, kind: 'current' });
}

/** The first name of an account that has none (sign-up with a username, or PUT /account/username). */
export async function claimFirstUsername(trx: Knex.Transaction, accountId: string, name: string): Promise<Account> {
  const account = await Account.query(trx).findById(accountId).forUpdate();
  if (account!.username)
    throw conflict('username_already_set', {}, 'This account has a username: rename it with PATCH.');
  await take(trx, accountId, name);
  return account!.$query(trx).patchAndFetch({ username: name });
}

/** PUT /account/username: the first name, in a transaction of its own. */
export async function setFirstUsername(knex: Knex, accountId: string, name: string): Promise<Account> {
  return knex.transaction((trx) => claimFirstUsername(trx, accountId, name));
}

export interface Renamed {
  account: Account;
  next_change_at: Date;
}

/** Renames; the old name becomes an alias for 30 days. Too soon after the last rename: 409 with next_change_at. */
export async function renameAccount(knex: Knex, accountId: string, name: string): Promise<Renamed> {
  return knex.transaction(async (trx) => {
    const account = (await Account.query(trx).findById(accountId).forUpdate())!;
    if (!account.username) throw conflict('no_username', {}, 'Take a first username with PUT /account/username.');
    const next = nextChangeAt(account.username_changed_at);
    if (name === account.username) return { account, next_change_at: next ?? new Date() };
    if (next && next.getTime() > Date.now()) {
      throw conflict(
        'rename_too_soon',
        { next_change_at: next.toISOString() },
        `The next rename is allowed from ${next.toISOString()}.`,
      );
    }
    await Username.query(trx)
      .where({ name: account.username, account_id: accountId })
      .patch({ kind: 'alias', expires_at: aliasExpiry() });
    await take(trx, accountId, name);
    const now = new Date();
    const renamed = await account.$query(trx).patchAndFetch({ username: name, username_changed_at: now });
    return { account: renamed, next_change_at: nextChangeAt(now)! };
  });
}

/** The account a name points at: a current name, or an alias of the last 30 days. */
export async function findByUsername(knex: Knex, name: string): Promise<Account | undefined> {
  if (!isUsernameShape(name.toLowerCase())) return undefined;
  const holder = await holderOf(knex, name);
  return holder ? Account.query(knex).findById(holder.account_id) : undefined;
}
