// Key commands. The token is made here, returned once, and only its SHA-256 is kept.
import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import { findOwnApp } from './apps.js';
import { byLiveThenNewest } from './key-rules.js';
import { isKeyTokenShape, keyTokenHash, newKeyToken } from './key-token.js';
import { ApiKey } from './models.js';
import { isUuid } from '../platform/validation/uuid.js';

const DAY_MS = 24 * 3600 * 1000;

export interface NewKey {
  name: string;
  expires_in_days?: number | null;
}

export async function createKey(
  knex: Knex,
  prefix: string,
  accountId: string,
  appId: string,
  input: NewKey,
): Promise<{ key: ApiKey; token: string }> {
  const app = await findOwnApp(knex, accountId, appId);
  const token = newKeyToken(prefix);
  if (!isKeyTokenShape(prefix, token)) throw new Error('generated a key token of the wrong shape');
  const key = await ApiKey.query(knex).insertAndFetch({
    app_id: app.id,
    account_id: accountId,
    name: input.name,
    token_hash: keyTokenHash(token),
    last4: token.slice(-4),
    expires_at: input.expires_in_days ? new Date(Date.now() + input.expires_in_days * DAY_MS) : null,
  });
  return { key, token };
}

export async function listAccountKeys(knex: Knex, accountId: string): Promise<ApiKey[]> {
  const keys = await ApiKey.query(knex).where({ account_id: accountId });
  return keys.sort((a, b) => byLiveThenNewest(a, b));
}

export async function listAppKeys(knex: Knex, accountId: string, appId: string): Promise<ApiKey[]> {
  await findOwnApp(knex, accountId, appId);
  return (await ApiKey.query(knex).where({ app_id: appId })).sort((a, b) => byLiveThenNewest(a, b));
}

/** Revokes a key of the owner; a key revoked before stays as it was. Another account's key is 404. */
export async function revokeKey(knex: Knex, accountId: string, keyId: string): Promise<ApiKey> {
  const key = isUuid(keyId) ? await ApiKey.query(knex).findOne({ id: keyId, account_id: accountId }) : undefined;
  if (!key) throw notFound('No key of yours has this id.', 'key_not_found');
  if (key.revoked_at) return key;
  return key.$query(knex).patchAndFetch({ revoked_at: new Date() });
}
