// Input that once reached a 500: integers past their column, bodies nested thousands of levels deep, and the
// HTTP parser's own refusals. The operations and their fields come from the served reference, so a route
// or field added later is held to the same bounds without being listed here.
import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { answerClientErrors } from '../../api/client-error.js';
import { INT4_MAX } from '../../shared/platform/validation/integers.js';
import { MAX_JSON_DEPTH } from '../../shared/platform/validation/depth.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { SITE_ORIGIN, useTestApp } from '../helpers/test-app.js';

type Schema = Record<string, unknown> & { $ref?: string };
interface Operation {
  parameters?: Array<{ name: string; in: string; schema: Schema }>;
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
interface Reference {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const ID = '00000000-0000-4000-8000-000000000000';
const fill = (path: string) => path.replace(/\{[^}]+\}/g, ID);

/** Every integer in `schema` (following $refs) that declares no maximum, named by its path. */
function unboundedIntegers(reference: Reference, schema: unknown, where: string, seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const node = schema as Schema;
  if (node.$ref) {
    const name = node.$ref.split('/').pop()!;
    return unboundedIntegers(reference, reference.components.schemas[name], where, seen);
  }
  const found: string[] = [];
  const types = ([] as unknown[]).concat(node.type ?? []);
  if (types.includes('integer') && node.enum === undefined && node.const === undefined) {
    const maximum = (node.maximum ?? node.exclusiveMaximum) as number | undefined;
    if (maximum === undefined || maximum > INT4_MAX) found.push(where);
  }
  for (const [key, inner] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    found.push(...unboundedIntegers(reference, inner, `${where}.${key}`, seen));
  }
  for (const key of ['items', 'additionalProperties'])
    found.push(...unboundedIntegers(reference, node[key], `${where}[]`, seen));
  for (const key of ['oneOf', 'anyOf', 'allOf', 'prefixItems']) {
    for (const inner of (node[key] ?? []) as unknown[]) found.push(...unboundedIntegers(reference, inner, where, seen));
  }
  return found;
}

/** `[[[...]]]` or `{"a":{"a":...}}` nested `levels` deep, as text (JSON.stringify would recurse per level). */
const nestedArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const nestedObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('input bounds: integers, nesting and the HTTP parser', () => {
  useCleanDatabase();
  const app = useTestApp();
  let reference: Reference;
  let ops: Array<{ method: string; path: string; op: Operation }> = [];

  before(async () => {
    reference = (await app.client.get('/api/v1/openapi.json')).body as Reference;
    ops = Object.entries(reference.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  });

  it('every integer a request may carry declares a maximum its column holds', () => {
    expect(ops.length).to.be.greaterThan(100);
    const unbounded = ops.flatMap(({ method, path, op }) => [
      ...(op.parameters ?? []).flatMap((p) =>
        unboundedIntegers(reference, p.schema, `${method} ${path} ${p.in} ${p.name}`),
      ),
      ...Object.values(op.requestBody?.content ?? {}).flatMap((c) =>
        unboundedIntegers(reference, c.schema, `${method} ${path} body`),
      ),
    ]);
    expect(unbounded).to.deep.equal([]);
  });

  it('a layout version past the integer column is 400 out_of_range, on save and on publish', async () => {
    const { site: client } = await signedInClient(app.client);
    for (const version of [INT4_MAX + 1, 1e12]) {
      const saved = await client.put('/api/v1/profile/layout', { layout: { sections: [] }, version });
      expect(saved.status, `PUT ${version}`).to.equal(400);
      expect(saved.body.error).to.include({ code: 'invalid_request', field: 'version', reason: 'out_of_range' });
      const published = await client.post('/api/v1/profile/layout/publish', { version });
      expect(published.status, `publish ${version}`).to.equal(400);
      expect(published.body.error).to.include({ field: 'version', reason: 'out_of_range' });
    }
  });

  it(`a JSON body nested deeper than ${MAX_JSON_DEPTH} levels is 400 too_deep on every operation that takes one`, async () => {
    const withBody = ops.filter(({ op }) => op.requestBody?.content['application/json']);
    expect(withBody.length).to.be.greaterThan(25);
    const wrong: string[] = [];
    for (const { method, path } of withBody) {
      for (const [shape, raw] of [
        ['arrays', nestedArrays(5000)],
        ['objects', nestedObjects(9000)],
      ]) {
        const res = await app.client.request(method, fill(path), {
          raw,
          headers: { 'content-type': 'application/json', origin: SITE_ORIGIN },
        });
        const seen = `${res.status} ${res.body?.error?.code} ${res.body?.error?.reason}`;
        if (seen !== '400 invalid_request too_deep') wrong.push(`${method} ${path} (${shape}): ${seen}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('the sign-in service refuses a deep body the same way, before anything reads it', async () => {
    const res = await app.client.request('POST', '/api/auth/sign-in', {
      raw: nestedObjects(9000),
      headers: { 'content-type': 'application/json', origin: SITE_ORIGIN },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'invalid_request', reason: 'too_deep' });
  });

  it(`a body exactly ${MAX_JSON_DEPTH} levels deep passes the depth step (and meets validation)`, async () => {
    const { site: client } = await signedInClient(app.client);
    // The body object is level 1, so the deepest value sits at the limit.
    const res = await client.request('PATCH', '/api/v1/profile', {
      raw: `{"bio":${nestedArrays(MAX_JSON_DEPTH - 1)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ field: 'bio', reason: 'wrong_type' });
    // One level more is refused before validation sees it.
    const deeper = await client.request('PATCH', '/api/v1/profile', {
      raw: `{"bio":${nestedArrays(MAX_JSON_DEPTH)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deeper.status).to.equal(400);
    expect(deeper.body.error).to.include({ code: 'invalid_request', reason: 'too_deep' });
  });

  it('integers in the query and the path past their maximum are 400 out_of_range, never a query', async () => {
    const ratings = await app.client.get(`/api/v1/games/ratings?ids=${INT4_MAX + 1}`);
    expect(ratings.status).to.equal(400);
    expect(ratings.body.error).to.include({ field: 'ids', reason: 'out_of_range' });
    const year = await app.client.get('/api/v1/profiles/somebody/year/10000');
    expect(year.status).to.equal(400);
    expect(year.body.error).to.include({ field: 'year', reason: 'out_of_range' });
  });

  it('a query past the header limit is 431 with the error shape', async () => {
    const res = await app.client.get(`/api/v1/games?q=${'a'.repeat(20_000)}`);
    expect(res.status).to.equal(431);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.body.error).to.include({ code: 'invalid_request', reason: 'headers_too_large' });
    expect(res.headers.get('x-request-id')).to.be.a('string');
  });

  it('a request the parser cannot read is 400 with the error shape', async () => {
    const { port, hostname } = new URL(app.client.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.write('GET /health HTTP/1.1\r\nHost x\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).to.match(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.error).to.include({ code: 'invalid_request', reason: 'malformed_request' });
  });

  it('headers that arrive too slowly are 408 with the error shape', async () => {
    // A server of its own with short time-outs, answering the parser's refusals as the web process does.
    const server = http.createServer({ headersTimeout: 200, requestTimeout: 300, connectionsCheckingInterval: 50 });
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /health HTTP/1.1\r\nHost: x\r\n'));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).to.match(/^HTTP\/1\.1 408 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(body.error).to.include({ code: 'invalid_request', reason: 'request_timeout' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
