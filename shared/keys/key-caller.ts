// Resolving an API key to its caller: one statement reads the key with its app's current scopes and its
// owner (so a scope change or a revocation is seen on the very next request) and, when the route names
// an allowance, charges it in the same round trip, and tells whether the owner is suspended (a write
// refuses them: one more round trip on every write otherwise). Unknown, revoked and expired keys all come
// back as null, and the caller answers them alike.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { WINDOW_MS } from './allowances.js';
import { queryPrepared } from '../platform/db/prepared.js';
import { keyTokenHash } from './key-token.js';
import type { Allowance } from './scopes.js';

export interface KeyIdentity {
  id: string;
  app_id: string;
  scopes: string[];
  last_used_at: Date | null;
}

export interface KeyCaller {
  account: Account;
  key: KeyIdentity;
  /** Points used in the allowance's window after this charge, and when the window ends (epoch ms). */
  charge: { points: number; expire: number } | null;
  /** The owner is under an active Suspensão or Banimento permanente now. */
  suspended: boolean;
}

/** last_used_at is written at most once a minute per key, not on every request. */
const LAST_USED_EVERY_MS = 60 * 1000;

const LIVE_KEY = `
  SELECT acc.*, k.id AS key_id, k.app_id AS key_app_id, a.scopes AS key_scopes, k.last_used_at AS key_last_used_at,
    NOT ${NOT_SUSPENDED('acc.id')} AS key_owner_suspended
  FROM api_keys k JOIN apps a ON a.id = k.app_id JOIN accounts acc ON acc.id = k.account_id
  WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`;

// The window starts at the first charge and lasts an hour; a charge after its end starts a new one.
// The statement commits asynchronously (set_config(..., true) lasts until its implicit transaction ends,
// which is when the commit reads it): a charge does not wait for a WAL flush, and a crash loses at most
// the last fraction of a second of charges, while the table itself, with every lockout, survives.
const LIVE_KEY_CHARGED = `
  WITH k AS (${LIVE_KEY}),
  async_commit AS (SELECT set_config('synchronous_commit', 'off', true)),
  charge AS (
    INSERT INTO rate_limits (key, points, expire)
    SELECT $2 || k.key_id, 1, $3::bigint FROM k, async_commit
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN rate_limits.expire <= $4::bigint THEN 1 ELSE rate_limits.points + 1 END,
      expire = CASE WHEN rate_limits.expire <= $4::bigint THEN EXCLUDED.expire ELSE rate_limits.expire END
    RETURNING points, expire
  )
  SELECT k.*, charge.points AS charged_points, charge.expire AS charged_expire FROM k LEFT JOIN charge ON true`;

export async function findKeyCaller(
  knex: Knex,
  token: string,
  allowance: Allowance | null,
  now = Date.now(),
): Promise<KeyCaller | null> {
  const hash = keyTokenHash(token);
  const rows = allowance
    ? await queryPrepared(knex, 'jogatina_key_charged', LIVE_KEY_CHARGED, [
        hash,
        `allowance:${allowance}:`,
        now + WINDOW_MS,
        now,
      ])
    : await queryPrepared(knex, 'jogatina_key', LIVE_KEY, [hash]);
  const row = rows[0];
  if (!row) return null;
  const {
    key_id,
    key_app_id,
    key_scopes,
    key_last_used_at,
    key_owner_suspended,
    charged_points,
    charged_expire,
    ...accountColumns
  } = row;
  return {
    account: Account.fromJson(accountColumns, { skipValidation: true }),
    key: {
      id: key_id as string,
      app_id: key_app_id as string,
      scopes: key_scopes as string[],
      last_used_at: key_last_used_at as Date | null,
    },
    charge: allowance ? { points: Number(charged_points), expire: Number(charged_expire) } : null,
    suspended: key_owner_suspended === true,
  };
}

export async function noteKeyUse(knex: Knex, key: KeyIdentity, now = Date.now()): Promise<void> {
  if (key.last_used_at && now - key.last_used_at.getTime() < LAST_USED_EVERY_MS) return;
  await knex('api_keys')
    .where({ id: key.id })
    .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now - LAST_USED_EVERY_MS)))
    .update({ last_used_at: new Date(now) });
}
