// The store behind `Idempotency-Key` (README: API notes; the web side is api/middleware/idempotency.ts).
// A request takes its key in one statement (an insert that does nothing on a live row), so of any number
// sent at once exactly one runs; the others find the row and are refused (another request, or the same one
// still running) or replayed (the same one, done). The answer is stored sealed, because a stored answer may
// hold a secret shown once (a new API key's token). A row lives 24 hours from its first request; a row
// still in progress after the lease belongs to a process that died, and the next request may take it.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { seal, unseal } from '../crypto/sealed-box.js';

/** How long a key's answer is replayed (Stripe's rule): from the first request. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A request holding its key longer than this (far beyond any route's time) is taken to have died. */
export const IDEMPOTENCY_LEASE_MS = 10 * 60 * 1000;

const PURPOSE = 'idempotency-answer';

/** Who sent the key, to what: keys of different scopes never meet. */
export interface IdempotencyScope {
  accountId: string;
  /** `session` for the account's sessions, `key:<id>` for one API key. */
  caller: string;
  method: string;
  path: string;
  key: string;
}

/** An answer as stored and replayed. A body that is a stream is never stored. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body:
    | { kind: 'empty' }
    | { kind: 'json'; value: unknown }
    | { kind: 'text'; value: string }
    | { kind: 'binary'; base64: string };
}

export type KeyOutcome =
  | { outcome: 'taken'; id: string }
  | { outcome: 'replay'; answer: StoredAnswer }
  | { outcome: 'mismatch' }
  | { outcome: 'in_progress' };

function sha256(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export function scopeHash(scope: IdempotencyScope): string {
  return sha256([scope.accountId, scope.caller, scope.method, scope.path, scope.key]);
}

/** A JSON value with the keys of every object sorted, so the order a client wrote them in does not count. */
export function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonicalJson((value as Record<string, unknown>)[key])]),
    );
  }
  return value ?? null;
}

/** The request's fingerprint: the same request gives the same one, whatever the order of its keys. */
export function requestFingerprint(parts: { method: string; path: string; query: unknown; body: unknown }): string {
  return sha256([parts.method, parts.path, canonicalJson(parts.query), canonicalJson(parts.body)]);
}

interface KeyRow {
  id: string;
  fingerprint: string;
  state: 'in_progress' | 'done';
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

/**
 * Takes the key for this request, or says why not. A row past its 24 hours, or held past the lease, is
 * taken over in the same statement, so it never needs the purge to have run.
 */
export async function takeIdempotencyKey(
  knex: Knex,
  secret: string,
  scope: IdempotencyScope,
  fingerprint: string,
  now = Date.now(),
): Promise<KeyOutcome> {
  const hash = scopeHash(scope);
  // A row released (deleted) between the insert and the read is simply tried again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const { rows } = await knex.raw<{ rows: Array<{ id: string }> }>(
      `INSERT INTO idempotency_keys
         (scope, account_id, caller, method, path, key, fingerprint, state, locked_at, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'in_progress', ?, ?, ?)
       ON CONFLICT (scope) DO UPDATE SET
         fingerprint = EXCLUDED.fingerprint, state = 'in_progress', status = NULL, headers = NULL, body = NULL,
         locked_at = EXCLUDED.locked_at, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_at <= ?)
       RETURNING id`,
      [
        hash,
        scope.accountId,
        scope.caller,
        scope.method,
        scope.path,
        scope.key,
        fingerprint,
        new Date(now),
        new Date(now),
        new Date(now + IDEMPOTENCY_TTL_MS),
        new Date(now - IDEMPOTENCY_LEASE_MS),
      ],
    );
    if (rows.length > 0) return { outcome: 'taken', id: String(rows[0].id) };
    const row: KeyRow | undefined = await knex('idempotency_keys')
      .where({ scope: hash })
      .first('id', 'fingerprint', 'state', 'status', 'headers', 'body');
    if (!row) continue;
    if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
    if (row.state === 'in_progress') return { outcome: 'in_progress' };
    return {
      outcome: 'replay',
      answer: {
        status: row.status!,
        headers: row.headers ?? {},
        body: JSON.parse(unseal(secret, PURPOSE, row.body!)) as StoredAnswer['body'],
      },
    };
  }
  // Released three times in a row while we looked: the requests holding it are failing; try later.
  return { outcome: 'in_progress' };
}

/** Keeps the answer of the request that took the key, for its repeats to replay. */
export async function finishIdempotencyKey(
  knex: Knex,
  secret: string,
  id: string,
  answer: StoredAnswer,
): Promise<void> {
  await knex('idempotency_keys')
    .where({ id, state: 'in_progress' })
    .update({
      state: 'done',
      status: answer.status,
      headers: JSON.stringify(answer.headers),
      body: seal(secret, PURPOSE, JSON.stringify(answer.body)),
      locked_at: null,
    });
}

/** Gives the key back (the request failed on our side, or asked to be retried): the next try runs. */
export async function releaseIdempotencyKey(knex: Knex, id: string): Promise<void> {
  await knex('idempotency_keys').where({ id, state: 'in_progress' }).delete();
}

/** The retention purge's part: rows past their 24 hours. */
export async function purgeExpiredIdempotencyKeys(knex: Knex, now = Date.now()): Promise<number> {
  return knex('idempotency_keys').where('expires_at', '<=', new Date(now)).delete();
}
