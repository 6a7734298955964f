// Probe routes under /api/v1 for the Idempotency-Key tests, declared like the API's own (an access
// declaration first): what they answer is set by each test through `probe`.
import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { AppState } from '../../api/context.js';
import { sessionOnly } from '../../api/middleware/access.js';
import { multipartFile, UPLOAD_LIMIT_BYTES } from '../../api/middleware/multipart.js';
import { db } from '../../shared/platform/db/knex.js';
import { conflict, rateLimited, unavailable } from '../../shared/platform/errors.js';
import type { TestResponse } from './http-client.js';

export type ProbeAnswer =
  | 'created'
  | 'fault'
  | 'unavailable'
  | 'rate_limited'
  | 'stream'
  | 'hold'
  | 'written_fault'
  | 'written_refusal'
  | 'caught_violation';

/** The row a writing probe leaves (rate_limits: a table any test may write a row of its own into). */
export const probeRow = (tag: string) => `probe:${tag}`;

/** Probe routes under /api/v1, declared like the API's own: what they answer is set by each test. */
export const probe = {
  answer: 'created' as ProbeAnswer,
  runs: 0,
  uploads: 0,
  /** The Content-Type of every upload that reached the route, boundary included. */
  uploadTypes: [] as string[],
  release: () => undefined as void,
  held: Promise.resolve(),
  /** Names the rows the writing probes leave. */
  tag: '',
};

export function probes(): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/v1/probe' });
  router.post('/things', sessionOnly(), async (ctx) => {
    probe.runs += 1;
    const run = probe.runs;
    switch (probe.answer) {
      case 'fault':
        throw new Error('a probe fault');
      case 'unavailable':
        throw unavailable('The probe is down.');
      case 'rate_limited':
        throw rateLimited(5);
      case 'stream':
        ctx.type = 'text/plain';
        ctx.body = Readable.from(['streamed']);
        return;
      case 'hold':
        await probe.held;
        break;
      case 'written_fault':
        await db()('rate_limits').insert({ key: probeRow(probe.tag), points: 1, expire: 0 });
        throw new Error('a probe fault after a write');
      case 'written_refusal':
        await db()('rate_limits').insert({ key: probeRow(probe.tag), points: 1, expire: 0 });
        throw conflict('probe_refused', {}, 'Refused after a write.');
      case 'caught_violation':
        // A statement that fails and is caught (as routes do with unique violations) takes nothing else
        // with it: the write before and the one after stay.
        await db()('rate_limits').insert({ key: probeRow(probe.tag), points: 1, expire: 0 });
        await db()('rate_limits')
          .insert({ key: probeRow(probe.tag), points: 2, expire: 0 })
          .catch((error: { code?: string }) => {
            if (error.code !== '23505') throw error;
          });
        await db()('rate_limits').insert({ key: probeRow(`${probe.tag}:after`), points: 3, expire: 0 });
        break;
      case 'created':
        break;
    }
    ctx.status = 201;
    ctx.set('Location', `/api/v1/probe/things/${run}`);
    ctx.body = { data: { run } };
  });
  router.post('/upload', sessionOnly(), multipartFile({ field: 'image', maxBytes: UPLOAD_LIMIT_BYTES }), (ctx) => {
    probe.uploads += 1;
    probe.uploadTypes.push(ctx.get('content-type'));
    ctx.status = 201;
    ctx.body = { data: { bytes: ctx.state.upload!.bytes, run: probe.uploads } };
  });
  return router;
}

export const keyed = (key: string, headers: Record<string, string> = {}) => ({
  headers: { 'idempotency-key': key, ...headers },
});
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const replayed = (res: TestResponse) => res.headers.get('idempotent-replayed');

export async function appCount(accountId: string): Promise<number> {
  return Number((await db()('apps').where({ account_id: accountId }).count({ n: '*' }))[0].n);
}

export async function draftCount(accountId: string): Promise<number> {
  return Number((await db()('drafts').where({ account_id: accountId }).count({ n: '*' }))[0].n);
}
