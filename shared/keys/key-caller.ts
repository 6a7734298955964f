// Resolving an API key to its caller: one query for the key, its app's current scopes and its owner, so
// a scope change or a revocation is seen on the very next request. Unknown, revoked and expired keys all
// come back as null, and the caller answers them alike.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { keyTokenHash } from './key-token.js';

export interface KeyIdentity {
  id: string;
  app_id: string;
  scopes: string[];
  last_used_at: Date | null;
}

export interface KeyCaller {
  account: Account;
  key: KeyIdentity;
}

/** last_used_at is written at most once a minute per key, not on every request. */
const LAST_USED_EVERY_MS = 60 * 1000;

export async function findKeyCaller(knex: Knex, token: string): Promise<KeyCaller | null> {
  const row = await knex('api_keys as k')
    .join('apps as a', 'a.id', 'k.app_id')
    .join('accounts as acc', 'acc.id', 'k.account_id')
    .where('k.token_hash', keyTokenHash(token))
    .whereNull('k.revoked_at')
    .where((q) => q.whereNull('k.expires_at').orWhere('k.expires_at', '>', knex.fn.now()))
    .first('acc.*', 'k.id as key_id', 'k.app_id as key_app_id', 'a.scopes as key_scopes', 'k.last_used_at as key_last_used_at');
  if (!row) return null;
  const { key_id, key_app_id, key_scopes, key_last_used_at, ...accountColumns } = row;
  return {
    account: Account.fromJson(accountColumns, { skipValidation: true }),
    key: { id: key_id, app_id: key_app_id, scopes: key_scopes, last_used_at: key_last_used_at },
  };
}

export async function noteKeyUse(knex: Knex, key: KeyIdentity, now = Date.now()): Promise<void> {
  if (key.last_used_at && now - key.last_used_at.getTime() < LAST_USED_EVERY_MS) return;
  await knex('api_keys')
    .where({ id: key.id })
    .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now - LAST_USED_EVERY_MS)))
    .update({ last_used_at: new Date(now) });
}
