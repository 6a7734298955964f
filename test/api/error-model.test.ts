// The error model and request plumbing of every route, exercised over real HTTP on the full stack, with
// probe routes mounted beside the API's own.
import Router from '@koa/router';
import { expect } from 'chai';
import type { AppState } from '../../api/context.js';
import { validate } from '../../api/middleware/validate.js';
import { db } from '../../shared/platform/db/knex.js';
import { pageParameter } from '../../shared/platform/paging/paging.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

function probes(): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/probe' });
  router.get('/boom', () => {
    throw new Error('secret internals at /srv/app.ts:12');
  });
  router.post('/echo', (ctx) => {
    ctx.body = { data: { body: ctx.request.body ?? null } };
  });
  router.get(
    '/items/:id',
    validate({
      params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
      query: {
        type: 'object',
        properties: {
          page: pageParameter(100),
          sort: { type: 'string', enum: ['new', 'old'], default: 'new' },
          ids: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 3 },
          full: { type: 'boolean' },
        },
      },
    }),
    (ctx) => {
      ctx.body = { data: ctx.state.input };
    },
  );
  router.post(
    '/things',
    validate({
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1, maxLength: 60 }, count: { type: 'integer' } },
      },
    }),
    (ctx) => {
      ctx.status = 201;
      ctx.body = { data: ctx.state.input.body };
    },
  );
  router.post('/duplicate', async () => {
    // A unique violation from the database surfaces as 409, not 500.
    await db().transaction(async (trx) => {
      await trx.raw('CREATE TEMP TABLE probe_dup (k int unique) ON COMMIT DROP');
      await trx.raw('INSERT INTO probe_dup VALUES (1), (1)');
    });
  });
  return router;
}

describe('the error model and request plumbing', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ extraRoutes: [probes()] });
  });
  after(() => app.close());

  describe('unknown routes and methods', () => {
    it('answers 404 not_found in the error shape for an unknown route', async () => {
      const res = await app.client.get('/api/v1/no-such-thing');
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body).to.deep.equal({
        error: { code: 'not_found', message: 'No route matches GET /api/v1/no-such-thing.' },
      });
    });

    it('answers 404 for a path outside the API too', async () => {
      const res = await app.client.delete('/nowhere');
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
    });

    it('answers 405 method_not_allowed with Allow for a known path', async () => {
      const res = await app.client.delete('/probe/boom');
      expect(res.status).to.equal(405);
      expect(res.body.error.code).to.equal('method_not_allowed');
      expect(res.headers.get('allow')).to.equal('HEAD, GET');
    });
  });

  describe('bodies', () => {
    it('parses a JSON body', async () => {
      const res = await app.client.post('/probe/echo', { a: [1, 'x'] });
      expect(res.status).to.equal(200);
      expect(res.body.data.body).to.deep.equal({ a: [1, 'x'] });
    });

    it('accepts an empty body without a content type', async () => {
      const res = await app.client.request('POST', '/probe/echo');
      expect(res.status).to.equal(200);
      expect(res.body.data.body).to.equal(null);
    });

    it('refuses malformed JSON with 400 invalid_request reason malformed_json', async () => {
      const res = await app.client.request('POST', '/probe/echo', {
        raw: '{"a": 1,',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ code: 'invalid_request', reason: 'malformed_json' });
    });

    it('refuses a bare JSON string or number: a body is an object or a list', async () => {
      const res = await app.client.request('POST', '/probe/echo', {
        raw: '"text"',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.reason).to.equal('malformed_json');
    });

    it('refuses __proto__ keys rather than merging them', async () => {
      const res = await app.client.request('POST', '/probe/echo', {
        raw: '{"__proto__": {"admin": true}}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.reason).to.equal('malformed_json');
    });

    it('refuses a body of another content type with 400 unsupported_content_type', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await app.client.request('POST', '/probe/echo', { raw: 'a=1', headers: { 'content-type': type } });
        expect(res.status, type).to.equal(400);
        expect(res.body.error).to.deep.include({ code: 'invalid_request', reason: 'unsupported_content_type' });
      }
    });

    it('refuses multipart on a route that takes JSON', async () => {
      const form = new FormData();
      form.append('name', 'x');
      const res = await app.client.request('POST', '/probe/things', { raw: form });
      expect(res.status).to.equal(400);
      expect(res.body.error.reason).to.equal('unsupported_content_type');
    });

    it('refuses a JSON body over 1 MB with 400 too_large', async () => {
      const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) });
      const res = await app.client.request('POST', '/probe/echo', {
        raw: big,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ code: 'invalid_request', reason: 'too_large' });
    });

    it('accepts a JSON body just under 1 MB', async () => {
      const body = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 - 20) });
      expect(Buffer.byteLength(body)).to.be.below(1024 * 1024);
      const res = await app.client.request('POST', '/probe/echo', {
        raw: body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).to.equal(200);
    });
  });

  describe('thrown errors', () => {
    it('answers 500 internal with no stack or internals, and logs it with the request id', async () => {
      const res = await app.client.get('/probe/boom');
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ error: { code: 'internal', message: 'Something went wrong on our side.' } });
      expect(res.text).not.to.include('secret internals');
      const requestId = res.headers.get('x-request-id');
      expect(requestId).to.be.a('string');
      const logged = app.logs.find((line) => line.msg === 'request failed' && line.req_id === requestId);
      expect(logged, 'error log line with the request id').to.exist;
      expect(JSON.stringify(logged)).to.include('secret internals');
    });

    it('turns a database unique violation into 409 conflict', async () => {
      const res = await app.client.post('/probe/duplicate', {});
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('conflict');
    });
  });

  describe('request ids and access logs', () => {
    it('keeps a well-formed caller id and replaces an unsafe one', async () => {
      const kept = await app.client.get('/health', { headers: { 'x-request-id': 'trace-1234abcd' } });
      expect(kept.headers.get('x-request-id')).to.equal('trace-1234abcd');
      const replaced = await app.client.get('/health', { headers: { 'x-request-id': 'bad id\twith spaces' } });
      expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('writes one access line per request, without the query string', async () => {
      const res = await app.client.get('/api/v1/nothing?token=secret-token');
      const id = res.headers.get('x-request-id');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const lines = app.logs.filter((line) => line.msg === 'request' && line.req_id === id);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({ method: 'GET', path: '/api/v1/nothing', status: 404 });
      expect(JSON.stringify(lines[0])).not.to.include('secret-token');
    });
  });

  describe('validation', () => {
    it('says the bounds in the message', async () => {
      const res = await app.client.get('/probe/items/1?page=101');
      expect(res.body.error.message).to.equal('page must be an integer from 1 to 100.');
    });

    it('coerces path and query numbers and applies defaults', async () => {
      const res = await app.client.get('/probe/items/7?page=3&ids=1,2&full=true&unknown=1');
      expect(res.status).to.equal(200);
      expect(res.body.data.params).to.deep.equal({ id: 7 });
      expect(res.body.data.query).to.deep.equal({ page: 3, sort: 'new', ids: [1, 2], full: true });
    });

    const refusals: Array<[string, string, string]> = [
      ['/probe/items/0', 'id', 'out_of_range'],
      ['/probe/items/abc', 'id', 'wrong_type'],
      ['/probe/items/1?page=0', 'page', 'out_of_range'],
      ['/probe/items/1?page=101', 'page', 'out_of_range'],
      ['/probe/items/1?page=1.5', 'page', 'wrong_type'],
      ['/probe/items/1?page=1e2', 'page', 'wrong_type'],
      ['/probe/items/1?page=', 'page', 'wrong_type'],
      ['/probe/items/1?page=1&page=2', 'page', 'wrong_type'],
      ['/probe/items/1?sort=hot', 'sort', 'not_allowed'],
      ['/probe/items/1?ids=1,2,3,4', 'ids', 'too_long'],
      ['/probe/items/1?ids=1,x', 'ids', 'wrong_type'],
      ['/probe/items/1?full=yes', 'full', 'wrong_type'],
    ];
    for (const [path, field, reason] of refusals) {
      it(`answers 400 for ${path} naming ${field} (${reason})`, async () => {
        const res = await app.client.get(path);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ code: 'invalid_request', field, reason });
        expect(res.body.error.message).to.include(field);
      });
    }

    it('validates a body and answers 201 on success', async () => {
      const res = await app.client.post('/probe/things', { name: 'ok', count: 2 });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.deep.equal({ name: 'ok', count: 2 });
    });

    const bodyRefusals: Array<[unknown, string, string]> = [
      [{}, 'name', 'missing'],
      [{ name: '' }, 'name', 'too_short'],
      [{ name: 'x'.repeat(61) }, 'name', 'too_long'],
      [{ name: 5 }, 'name', 'wrong_type'],
      [{ name: 'ok', count: '2' }, 'count', 'wrong_type'],
      [{ name: 'ok', extra: true }, 'extra', 'unknown_field'],
      [[1, 2], 'body', 'wrong_type'],
    ];
    for (const [body, field, reason] of bodyRefusals) {
      it(`answers 400 for the body ${JSON.stringify(body).slice(0, 30)} naming ${field} (${reason})`, async () => {
        const res = await app.client.post('/probe/things', body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ code: 'invalid_request', field, reason });
      });
    }

    it('names the first missing field when the body is absent', async () => {
      const res = await app.client.request('POST', '/probe/things');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ field: 'name', reason: 'missing' });
    });
  });
});
