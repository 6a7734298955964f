// The store behind `Idempotency-Key` (docs/api-notes.md; the web side is api/middleware/idempotency.ts).
// Stripe's rule: a key's outcome is stored with the write. Every statement here runs in the request's
// own transaction (db/request-transaction.ts), so the answer is committed in the same commit as what the
// request wrote, or not at all:
//   - a request holds its key with a transaction-level advisory lock, taken without waiting: of any
//     number sent at once exactly one runs, the others are refused (409 in progress) or, once it has
//     committed, replayed. The lock ends with the holder's transaction, so a holder that dies (its
//     connection closes) or hangs (the server's idle-in-transaction time-out ends it) frees the key at
//     once, and no lease is needed. It works through PgBouncer in transaction mode too: the lock lives
//     inside one transaction, on the server connection that runs it.
//   - a row is written only with the answer, in the request's commit; a crash before that commit undoes
//     the request's writes as well, and a crash after it leaves the answer to replay.
//   - a request that hands a job to a worker and waits for it commits before the wait (the worker must see
//     the job): that commit writes the row `in_progress` with the job, so a repeat after the holder died
//     takes the request up from that job (`resume`) instead of sending a second one.
// The answer is stored sealed, because a stored answer may hold a secret shown once (a new API key's
// token). A row lives 24 hours from its first request.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { seal, unseal } from '../crypto/sealed-box.js';
import type { HandOver } from '../db/request-transaction.js';
import { IdempotencyKey } from './models.js';

/** How long a key's answer is replayed (Stripe's rule): from the first request. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * Rows `in_progress` without a job were written by older processes, which held a key by such a row:
 * one held longer than this belongs to a process that died.
 */
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
  /** Nobody holds the key and nothing is stored: the request runs, holding the key until it ends. */
  | { outcome: 'taken' }
  /** The first run handed `job` over and died: this one runs, and takes the request up at that job. */
  | { outcome: 'resume'; job: HandOver }
  | { outcome: 'replay'; answer: StoredAnswer }
  | { outcome: 'mismatch' }
  | { outcome: 'in_progress' };

/** Whether a job handed over is still to run or running (`pending`), or over (or gone). */
export type JobProgress = (job: HandOver) => Promise<'pending' | 'over'>;

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

/** What a repeat reads of a key's row. */
type KeyRow = Pick<
  IdempotencyKey,
  'fingerprint' | 'state' | 'status' | 'headers' | 'body' | 'locked_at' | 'expires_at' | 'job_queue' | 'job_id'
>;

/** The advisory lock that holds a key, by its scope (the namespace keeps it apart from other locks). */
const LOCK = 'hashtextextended(?, 0)';
const lockName = (hash: string) => `idempotency:${hash}`;

async function readRow(trx: Knex.Transaction, hash: string): Promise<KeyRow | undefined> {
  return IdempotencyKey.query(trx)
    .select('fingerprint', 'state', 'status', 'headers', 'body', 'locked_at', 'expires_at', 'job_queue', 'job_id')
    .findOne({ scope: hash });
}

function storedAnswer(secret: string, row: KeyRow): StoredAnswer {
  return {
    status: row.status!,
    headers: row.headers ?? {},
    body: JSON.parse(unseal(secret, PURPOSE, row.body!)) as StoredAnswer['body'],
  };
}

/**
 * Takes the key for this request inside its transaction `trx`, or says why not. The key stays held
 * until `trx` ends. A row past its 24 hours counts as none (it is replaced when the answer is stored).
 */
export async function takeIdempotencyKey(
  trx: Knex.Transaction,
  secret: string,
  scope: IdempotencyScope,
  fingerprint: string,
  jobProgress: JobProgress,
  now = Date.now(),
): Promise<KeyOutcome> {
  const hash = scopeHash(scope);
  const { rows } = await trx.raw<{ rows: Array<{ held: boolean }> }>(
    `SELECT pg_try_advisory_xact_lock(${LOCK}) AS held`,
    [lockName(hash)],
  );
  if (!rows[0].held) return { outcome: 'in_progress' };
  const row = await readRow(trx, hash);
  if (!row || row.expires_at.getTime() <= now) return { outcome: 'taken' };
  if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
  if (row.state === 'done') return { outcome: 'replay', answer: storedAnswer(secret, row) };
  if (row.job_queue && row.job_id) {
    // Its holder committed the hand-over and is now waiting for the job, or died. While the job may
    // still run, so may the holder's wait; once it is over, a live holder answers at once, so a row still
    // here then is a dead holder's (and if both go on, the lock in `holdAgain` lets one answer).
    const job = { queue: row.job_queue, jobId: row.job_id };
    return (await jobProgress(job)) === 'pending' ? { outcome: 'in_progress' } : { outcome: 'resume', job };
  }
  // A hold written by an older process (no lock): its lease says whether it is dead.
  return row.locked_at && row.locked_at.getTime() > now - IDEMPOTENCY_LEASE_MS
    ? { outcome: 'in_progress' }
    : { outcome: 'taken' };
}

/**
 * Thrown after a hand-over when the key is no longer this request's to answer: answered meanwhile (by the
 * first run, or by a repeat that took it up), or given back and taken by another request (`answer` null).
 */
export class KeyTakenMeanwhile extends Error {
  constructor(readonly answer: StoredAnswer | null) {
    super('this Idempotency-Key was settled by another request meanwhile');
    this.name = 'KeyTakenMeanwhile';
  }
}

/**
 * First in each transaction after a hand-over: holds the key again (waiting, since a live first run and
 * its repeat may both get here) and checks it is still this request's to answer.
 */
export async function holdAgain(
  trx: Knex.Transaction,
  secret: string,
  scope: IdempotencyScope,
  job: HandOver,
): Promise<void> {
  const hash = scopeHash(scope);
  await trx.raw(`SELECT pg_advisory_xact_lock(${LOCK})`, [lockName(hash)]);
  const row = await readRow(trx, hash);
  if (row?.state === 'done') throw new KeyTakenMeanwhile(storedAnswer(secret, row));
  if (row && (row.job_queue !== job.queue || row.job_id !== job.jobId)) throw new KeyTakenMeanwhile(null);
}

function rowValues(scope: IdempotencyScope, fingerprint: string, now: number) {
  return {
    scope: scopeHash(scope),
    account_id: scope.accountId,
    caller: scope.caller,
    method: scope.method,
    path: scope.path,
    key: scope.key,
    fingerprint,
    created_at: new Date(now),
    expires_at: new Date(now + IDEMPOTENCY_TTL_MS),
  };
}

/**
 * Writes the key's row in the request's transaction (one statement, SQL: whether the first request's
 * times are kept is decided against the row it meets): the first request's 24 hours are kept when the row
 * is its own hand-over, and start again over a row past them.
 */
async function writeRow(trx: Knex.Transaction, values: Record<string, unknown>, now: number): Promise<void> {
  const columns = Object.keys(values);
  const kept = (name: string) =>
    `${name} = CASE WHEN idempotency_keys.expires_at > :now THEN idempotency_keys.${name} ELSE EXCLUDED.${name} END`;
  await trx.raw(
    `INSERT INTO idempotency_keys (${columns.join(', ')}) VALUES (${columns.map((name) => `:${name}`).join(', ')})
     ON CONFLICT (scope) DO UPDATE SET
       ${columns
         .filter((name) => !['scope', 'created_at', 'expires_at'].includes(name))
         .map((name) => `${name} = EXCLUDED.${name}`)
         .join(', ')},
       ${kept('created_at')}, ${kept('expires_at')}`,
    { ...values, now: new Date(now) } as Knex.ValueDict,
  );
}

/** Keeps the answer for repeats to replay, in the transaction that commits what the request wrote. */
export async function storeIdempotencyAnswer(
  trx: Knex.Transaction,
  secret: string,
  scope: IdempotencyScope,
  fingerprint: string,
  answer: StoredAnswer,
  now = Date.now(),
): Promise<void> {
  await writeRow(
    trx,
    {
      ...rowValues(scope, fingerprint, now),
      state: 'done',
      status: answer.status,
      headers: JSON.stringify(answer.headers),
      body: seal(secret, PURPOSE, JSON.stringify(answer.body)),
      locked_at: null,
      job_queue: null,
      job_id: null,
    },
    now,
  );
}

/** Records, in the commit that hands `job` to a worker, that the request waits for it. */
export async function recordHandOver(
  trx: Knex.Transaction,
  scope: IdempotencyScope,
  fingerprint: string,
  job: HandOver,
  now = Date.now(),
): Promise<void> {
  await writeRow(
    trx,
    {
      ...rowValues(scope, fingerprint, now),
      state: 'in_progress',
      status: null,
      headers: null,
      body: null,
      locked_at: new Date(now),
      job_queue: job.queue,
      job_id: job.jobId,
    },
    now,
  );
}

/** Gives the key back after a hand-over (the request failed on our side): the next try runs. */
export async function releaseIdempotencyKey(trx: Knex.Transaction, scope: IdempotencyScope): Promise<void> {
  await IdempotencyKey.query(trx)
    .where({ scope: scopeHash(scope), state: 'in_progress' })
    .delete();
}

/** The retention purge's part: rows past their 24 hours. */
export async function purgeExpiredIdempotencyKeys(knex: Knex, now = Date.now()): Promise<number> {
  return IdempotencyKey.query(knex).where('expires_at', '<=', new Date(now)).delete();
}
