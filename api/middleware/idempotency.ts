// `Idempotency-Key` on every POST under /api/v1 (issue #21; README: API notes), Stripe's rules: the same
// key with the same request within 24 hours replays the first answer (status, body, Location and
// Content-Type, plus `Idempotent-Replayed: true`) without running the route again; the same key with
// another request is 409 `conflict` reason `idempotency_mismatch`; a repeat while the first still runs is
// 409 reason `idempotency_in_progress`. Keys belong to a caller: the account's sessions share theirs, each
// API key has its own. Answers of 4xx are kept and replayed like successes; a 5xx, a 429 (both say "try
// again") or a fault gives the key back, so the request may be retried.
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
import type { Logger } from '../../shared/platform/logger.js';
import {
  finishIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
  takeIdempotencyKey,
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

/** Waits before each new try to settle a key the database refused (an outage lasts seconds, mostly). */
const SETTLE_RETRY_MS = [1000, 2000, 4000, 8000, 16000, 32000];

/**
 * Settles a key in the background once the database is back, so a request that failed for want of it
 * (503 `database_unavailable`: it may be repeated) can be repeated with its key without waiting for the
 * lease. After the last try the lease frees the key.
 */
function settleLater(action: () => Promise<unknown>, log: Logger, requestId: string, attempt = 0): void {
  const wait = SETTLE_RETRY_MS[attempt];
  if (wait === undefined) {
    log.warn({ req_id: requestId }, 'gave up settling an idempotency key; its lease will free it');
    return;
  }
  setTimeout(() => {
    action().catch(() => settleLater(action, log, requestId, attempt + 1));
  }, wait).unref();
}

/**
 * Called by every access declaration once the caller may go on: runs the rest of the route under the
 * request's key when it is a POST under /api/v1 from a caller with `Idempotency-Key`, else just runs it.
 */
export async function withIdempotencyKey(ctx: Ctx, next: Next): Promise<unknown> {
  const caller = ctx.state.caller;
  if (!caller || !takesIdempotencyKey(ctx.method, ctx.path)) return next();
  const key = keyOf(ctx);
  if (key === null) return next();
  const body = await bodyOf(ctx);
  if (body === undefined) return next();
  const { knex, log } = ctx.services;
  const secret = config().secret;
  const fingerprint = requestFingerprint({ method: ctx.method, path: ctx.path, query: ctx.query, body });
  const scope = {
    accountId: caller.account.id,
    caller: caller.key ? `key:${caller.key.id}` : 'session',
    method: ctx.method,
    path: ctx.path,
    key,
  };
  const taken = await takeIdempotencyKey(knex, secret, scope, fingerprint);
  switch (taken.outcome) {
    case 'mismatch':
      throw conflict(
        'idempotency_mismatch',
        {},
        'This Idempotency-Key was used in the last 24 hours for another request (another body, query or path); use a new key.',
      );
    case 'in_progress':
      throw conflict(
        'idempotency_in_progress',
        {},
        'A request with this Idempotency-Key is still running; repeat it once that one has answered.',
      );
    case 'replay':
      replay(ctx, taken.answer);
      return;
    case 'taken':
      break;
  }

  const settle = async (answer: StoredAnswer | null) => {
    const action =
      answer && kept(answer.status)
        ? () => finishIdempotencyKey(knex, secret, taken.id, answer)
        : () => releaseIdempotencyKey(knex, taken.id);
    try {
      await action();
    } catch (error) {
      // The answer still goes out; the key is settled once the database answers again (or its lease ends).
      log.warn({ err: error, req_id: ctx.state.requestId }, 'could not settle an idempotency key; retrying');
      settleLater(action, log, ctx.state.requestId);
    }
  };
  try {
    await next();
  } catch (error) {
    const refusal = toApiError(error);
    await settle({
      status: refusal.status,
      headers: { ...refusal.headers, 'content-type': 'application/json; charset=utf-8' },
      body: { kind: 'json', value: refusal.body() },
    });
    throw error;
  }
  await settle(answerOf(ctx));
}
