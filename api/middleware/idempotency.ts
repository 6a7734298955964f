// `Idempotency-Key` on every POST under /api/v1 (issue #21; docs/api-notes.md), Stripe's rules: the same
// key with the same request within 24 hours replays the first answer (status, body, Location and
// Content-Type, plus `Idempotent-Replayed: true`) without running the route again; the same key with
// another request is 409 `conflict` reason `idempotency_mismatch`; a repeat while the first still runs is
// 409 reason `idempotency_in_progress`. Keys belong to a caller: the account's sessions share theirs, each
// API key has its own. Answers of 4xx are kept and replayed like successes; a 5xx, a 429 (both say "try
// again") or a fault gives the key back and undoes what the request wrote, so the request may be retried.
// The answer is committed with the request's writes (issue: nothing doubled when a process dies), so a
// key is never left held by a process that is gone, and never runs its request twice.
//
// It runs inside the route's access declaration (middleware/access.ts), the first step of every route,
// once the caller is known and allowed, so a new POST route has it without naming it. The sign-in service
// (/api/auth/*) is outside /api/v1 and takes no key. The store is shared/platform/idempotency/.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Stream } from 'node:stream';
import type { Next, ParameterizedContext } from 'koa';
import { config } from '../../shared/platform/config.js';
import { conflict, invalidRequest } from '../../shared/platform/errors.js';
import { RequestTransaction } from '../../shared/platform/db/request-transaction.js';
import {
  holdAgain,
  KeyTakenMeanwhile,
  recordHandOver,
  releaseIdempotencyKey,
  requestFingerprint,
  storeIdempotencyAnswer,
  takeIdempotencyKey,
  type IdempotencyScope,
  type KeyOutcome,
  type StoredAnswer,
} from '../../shared/platform/idempotency/idempotency-keys.js';
import type { AppState } from '../context.js';
import type { ErrorRef } from '../openapi/route-facts.js';
import { toApiError } from './errors.js';
import { UPLOAD_LIMIT_BYTES } from './multipart.js';

type Ctx = ParameterizedContext<AppState>;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * For the reference: the errors a route that takes the header may answer because of it (beside its own;
 * a replay answers whatever the first request answered).
 */
export const IDEMPOTENCY_ERRORS: ErrorRef[] = [
  'conflict:idempotency_mismatch',
  'conflict:idempotency_in_progress',
  'invalid_request:too_short',
  'invalid_request:too_long',
  'invalid_request:bad_format',
  'invalid_request:duplicate',
];

/** Whether a route takes `Idempotency-Key`: every POST under /api/v1 (a router pattern or a request's path). */
export function takesIdempotencyKey(method: string, path: string): boolean {
  return method.toUpperCase() === 'POST' && path.startsWith('/api/v1/');
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** Room beside the file for the parts' headers and the few small fields an upload form has. */
const MULTIPART_SLACK_BYTES = 1024 * 1024;
/** The answer headers kept with the body; everything else is the new request's own. */
const KEPT_HEADERS = ['location', 'content-type'];

/** The key the request sent, null without one; 400 when it is not 1 to 255 printable ASCII characters. */
function keyOf(ctx: Ctx): string | null {
  const value = ctx.req.headers['idempotency-key'];
  if (value === undefined) return null;
  const refuse = (reason: string, message: string) => invalidRequest(message, { field: IDEMPOTENCY_HEADER, reason });
  const sent = ctx.req.rawHeaders.filter((name, index) => index % 2 === 0 && name.toLowerCase() === 'idempotency-key');
  if (sent.length > 1) throw refuse('duplicate', 'Send Idempotency-Key once.');
  const key = String(value);
  if (key.length === 0) throw refuse('too_short', 'Idempotency-Key is empty: send 1 to 255 characters.');
  if (key.length > IDEMPOTENCY_KEY_MAX) {
    throw refuse('too_long', `Idempotency-Key is longer than ${IDEMPOTENCY_KEY_MAX} characters.`);
  }
  if (!PRINTABLE_ASCII.test(key)) {
    throw refuse('bad_format', 'Idempotency-Key takes printable ASCII characters only (a UUID will do).');
  }
  return key;
}

/**
 * What of the body the fingerprint covers: the parsed JSON, or for an upload a digest of its parts that
 * leaves out the boundary (clients draw a new one for every request, a retry included). An upload is
 * read here, up to the upload limit, and handed on to the route as if unread; a larger one is answered by
 * the route's own refusal without taking the key (`undefined`).
 */
async function bodyOf(ctx: Ctx): Promise<unknown> {
  if (!ctx.state.multipartPending) return ctx.request.body ?? null;
  const original = ctx.req;
  const { chunks, complete } = await readUpTo(original, UPLOAD_LIMIT_BYTES + MULTIPART_SLACK_BYTES);
  const replay = Object.assign(new PassThrough(), { headers: original.headers });
  for (const chunk of chunks) replay.write(chunk);
  if (complete) {
    replay.end();
  } else {
    original.once('error', (error) => replay.destroy(error));
    original.pipe(replay);
  }
  ctx.req = replay as unknown as IncomingMessage;
  if (!complete) return undefined;
  return { multipart: multipartDigest(String(original.headers['content-type'] ?? ''), Buffer.concat(chunks)) };
}

function readUpTo(stream: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        done();
        resolve({ chunks, complete: false });
      }
    };
    const onEnd = () => {
      done();
      resolve({ chunks, complete: true });
    };
    const cut = () => invalidRequest('The body ended before its declared length.', { reason: 'malformed_body' });
    const onError = () => {
      done();
      reject(cut());
    };
    const onClose = () => {
      done();
      reject(cut());
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/** SHA-256 of the parts between the boundary's delimiters, each with its length: the boundary itself left out. */
export function multipartDigest(contentType: string, body: Buffer): string {
  const hash = createHash('sha256');
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!match) return hash.update(body).digest('hex');
  const delimiter = Buffer.from(`--${match[1] ?? match[2]}`);
  let start = 0;
  for (;;) {
    const at = body.indexOf(delimiter, start);
    const end = at === -1 ? body.length : at;
    hash.update(`${end - start}:`).update(body.subarray(start, end));
    if (at === -1) break;
    start = at + delimiter.length;
  }
  return hash.digest('hex');
}

/** 4xx answers are kept; 5xx and 429 say "try again", so the key goes back. */
function kept(status: number): boolean {
  return status < 500 && status !== 429;
}

/** The answer the route gave, as stored; null for a stream (never stored). */
function answerOf(ctx: Ctx): StoredAnswer | null {
  const body: unknown = ctx.body;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = ctx.response.get(name);
    if (value) headers[name] = value;
  }
  const status = ctx.status;
  if (body == null) return { status, headers, body: { kind: 'empty' } };
  if (body instanceof Stream) return null;
  if (Buffer.isBuffer(body)) return { status, headers, body: { kind: 'binary', base64: body.toString('base64') } };
  if (typeof body === 'string') return { status, headers, body: { kind: 'text', value: body } };
  return { status, headers, body: { kind: 'json', value: body } };
}

function replay(ctx: Ctx, answer: StoredAnswer): void {
  // Body first: Koa sets a status and a type when a body is set; ours come after and win.
  const { body } = answer;
  if (body.kind === 'json') ctx.body = body.value as object;
  else if (body.kind === 'text') ctx.body = body.value;
  else if (body.kind === 'binary') ctx.body = Buffer.from(body.base64, 'base64');
  else ctx.body = null;
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.set(REPLAYED_HEADER, 'true');
}

/**
 * Called by every access declaration once the caller may go on: runs the rest of the route under the
 * request's key when it is a POST under /api/v1 from a caller with `Idempotency-Key`, else just runs it.
 *
 * With a key, the route runs in the request's own transaction (shared/platform/db/request-transaction.ts)
 * and its answer is stored in the same commit as its writes (Stripe's rule): a process killed after the
 * commit leaves the answer to replay; one killed before it leaves nothing written and the key free (see
 * shared/platform/idempotency/idempotency-keys.ts for how the key is held).
 */
export async function withIdempotencyKey(ctx: Ctx, next: Next): Promise<unknown> {
  const caller = ctx.state.caller;
  if (!caller || !takesIdempotencyKey(ctx.method, ctx.path)) return next();
  const key = keyOf(ctx);
  if (key === null) return next();
  const body = await bodyOf(ctx);
  if (body === undefined) return next();
  const { knex, replies } = ctx.services;
  const secret = config().secret;
  const fingerprint = requestFingerprint({ method: ctx.method, path: ctx.path, query: ctx.query, body });
  const scope: IdempotencyScope = {
    accountId: caller.account.id,
    caller: caller.key ? `key:${caller.key.id}` : 'session',
    method: ctx.method,
    path: ctx.path,
    key,
  };

  const unit = new RequestTransaction(knex);
  await unit.begin();
  let taken: KeyOutcome;
  try {
    taken = await takeIdempotencyKey(unit.trx, secret, scope, fingerprint, (job) => replies.progress(job));
  } catch (error) {
    await unit.rollback();
    throw error;
  }
  // Only a key taken (or taken up) goes on to the route; the other outcomes answer here, rolled back first.
  if (taken.outcome !== 'taken' && taken.outcome !== 'resume') await unit.rollback();
  switch (taken.outcome) {
    case 'mismatch':
      throw conflict(
        'idempotency_mismatch',
        {},
        'This Idempotency-Key was used in the last 24 hours for another request (another body, query or path); use a new key.',
      );
    case 'in_progress':
      throw inProgress();
    case 'replay':
      replay(ctx, taken.answer);
      return;
    case 'resume':
      unit.resumeFrom = taken.job;
      break;
    case 'taken':
      break;
  }
  unit.hooks = {
    beforeEarlyCommit: (trx, job) => recordHandOver(trx, scope, fingerprint, job),
    afterReopen: (trx) => holdAgain(trx, secret, scope, unit.handOver!),
  };

  let failure: { error: unknown } | null = null;
  let answer: StoredAnswer | null;
  try {
    await unit.run(() => next() as Promise<unknown>);
    answer = answerOf(ctx);
  } catch (error) {
    failure = { error };
    const refusal = toApiError(error);
    answer = {
      status: refusal.status,
      headers: { ...refusal.headers, 'content-type': 'application/json; charset=utf-8' },
      body: { kind: 'json', value: refusal.body() },
    };
  }
  const fail = () => {
    if (failure) throw failure.error;
  };

  if (unit.interruption instanceof KeyTakenMeanwhile) {
    // Taken up after a hand-over while another run of it answered first: theirs is the answer.
    await unit.rollback();
    if (!unit.interruption.answer) throw inProgress();
    resetAnswer(ctx);
    replay(ctx, unit.interruption.answer);
    return;
  }
  if (unit.resumeFrom && !unit.resumed) {
    // A repeat of a request whose first run handed a job over, which went another way before it got
    // there (what the first run did changed what this one saw): its writes are dropped, the first run's
    // stand. A refusal is told as it is; a success would describe work undone, so the key is in progress.
    await unit.rollback();
    fail();
    resetAnswer(ctx);
    throw inProgress();
  }
  if (!unit.open) {
    // Between a hand-over and the next transaction (the database failed as it began): the hand-over's
    // row stays for a repeat to take the request up from its job.
    fail();
    throw new Error('the request transaction did not reopen');
  }
  if (answer && kept(answer.status)) {
    try {
      await storeIdempotencyAnswer(unit.trx, secret, scope, fingerprint, answer);
      if (config().testPauseAtCommit === 'before') await pauseForTest(ctx, 'before');
      await unit.commit();
    } catch (error) {
      // Not committed, or not known to be: the route's answer is not given (the error's is: 503 when the
      // database went away), and a repeat replays the answer if the commit did happen.
      await unit.rollback();
      throw error;
    }
    if (config().testPauseAtCommit === 'after') await pauseForTest(ctx, 'after');
  } else if (answer === null) {
    // A streamed answer is not stored: the writes are kept and the key stays free, as without a key.
    await unit.commit();
  } else if (unit.handOver) {
    // Failed after a hand-over: what came before it is committed already (and the job with it), so
    // this phase is kept as well (a failed upload's clean-up) and the key is given back for a retry.
    try {
      await releaseIdempotencyKey(unit.trx, scope);
      await unit.commit();
    } catch (error) {
      await unit.rollback();
      throw failure ? failure.error : error;
    }
  } else {
    // 5xx, 429 or a fault ("try again"): nothing the request did stays, so the retry runs on a clean slate.
    await unit.rollback();
  }
  fail();
}

function inProgress() {
  return conflict(
    'idempotency_in_progress',
    {},
    'A request with this Idempotency-Key is still running; repeat it once that one has answered.',
  );
}

/** Clears what a route had set before its answer was replaced. */
function resetAnswer(ctx: Ctx): void {
  for (const name of KEPT_HEADERS) ctx.remove(name);
}

/**
 * Tests only (TEST_PAUSE_AT_COMMIT, refused in production): holds a request with a key just before its
 * commit, or between its commit and its answer, for a test to kill the process there. Never returns.
 */
async function pauseForTest(ctx: Ctx, when: 'before' | 'after'): Promise<void> {
  ctx.services.log.warn({ req_id: ctx.state.requestId, path: ctx.path }, `paused ${when} commit`);
  await new Promise(() => undefined);
}
