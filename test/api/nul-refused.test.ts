// U+0000 is refused at the edge on every operation of the reference: in the path, in the query and in a
// JSON body, 400 `invalid_request` reason `bad_format` naming the field, never a 500 from PostgreSQL.
// The operations come from the served document, so a new route is covered without being listed. Upload
// routes read their multipart fields after access, so they are tried with a signed-in session of their own.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { SITE_ORIGIN, useTestApp } from '../helpers/test-app.js';

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

const ID = '00000000-0000-4000-8000-000000000000';
const fill = (path: string, value = ID) => path.replace(/\{[^}]+\}/g, value);

describe('a NUL character anywhere in a request', () => {
  useCleanDatabase();
  const app = useTestApp();
  let ops: Array<{ method: string; path: string; op: Operation }> = [];

  before(async () => {
    const document = (await app.client.get('/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    ops = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  });

  const send = (method: string, path: string, body?: unknown) =>
    app.client.request(method, path, { body, headers: { origin: SITE_ORIGIN } });
  const refusal = (res: { status: number; body: { error?: { reason?: string; field?: string } } }) =>
    `${res.status} ${res.body?.error?.reason} ${res.body?.error?.field}`;

  it('reads the operations from the reference', () => {
    expect(ops.length).to.be.greaterThan(100);
  });

  it('is refused in a query parameter of every operation, the parameter named', async () => {
    const wrong: string[] = [];
    for (const { method, path, op } of ops) {
      const name = op.parameters?.find((p) => p.in === 'query')?.name ?? 'q';
      const res = await send(method, `${fill(path)}?${name}=a%00b`);
      if (refusal(res) !== `400 bad_format ${name}`) wrong.push(`${method} ${path}: ${refusal(res)}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('is refused in a path parameter of every operation that has one', async () => {
    const withParams = ops.filter(({ path }) => path.includes('{'));
    expect(withParams.length).to.be.greaterThan(40);
    const wrong: string[] = [];
    for (const { method, path } of withParams) {
      const res = await send(method, fill(path, 'a%00b'));
      if (refusal(res) !== '400 bad_format path') wrong.push(`${method} ${path}: ${refusal(res)}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('is refused in a JSON body of every operation that takes one, at any depth', async () => {
    const withBody = ops.filter(({ op }) => op.requestBody?.content['application/json']);
    expect(withBody.length).to.be.greaterThan(25);
    const wrong: string[] = [];
    for (const { method, path, op } of withBody) {
      const schema = op.requestBody!.content['application/json'].schema;
      const name = Object.keys(schema?.properties ?? {})[0] ?? 'value';
      const flat = await send(method, fill(path), { [name]: 'a\u0000b' });
      if (refusal(flat) !== `400 bad_format ${name}`) wrong.push(`${method} ${path}: ${refusal(flat)}`);
      const deep = await send(method, fill(path), { [name]: { inner: ['ok', 'a\u0000b'] } });
      if (refusal(deep) !== `400 bad_format ${name}.inner`) wrong.push(`${method} ${path} (deep): ${refusal(deep)}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('is refused in a key of a JSON body', async () => {
    const res = await send('PATCH', '/api/v1/profile', { 'bio\u0000': 'text' });
    expect(refusal(res)).to.equal('400 bad_format bio\u0000');
  });

  it('is refused in a multipart field of every upload that reads its body with the shared reader', async () => {
    const uploads = ops.filter(
      ({ op }) => op.requestBody?.content['multipart/form-data'] && !op.requestBody.content['application/json'],
    );
    expect(uploads.length).to.be.greaterThan(3);
    const { site, account } = await signedInClient(app.client);
    const created = await site.post('/api/v1/account/apps', { name: 'Icon holder' });
    const own = created.body.data.id as string;
    const wrong: string[] = [];
    let tried = 0;
    for (const { method, path } of uploads) {
      // Arcade's store-page media has a reader of its own whose fields are enumerations (kind, position).
      if (path.includes('/arcade/')) continue;
      tried += 1;
      const form = new FormData();
      form.append('note', 'a\u0000b');
      form.append('image', new Blob([Buffer.from('not really an image')], { type: 'image/png' }), 'x.png');
      const res = await site.request(method, fill(path, own), { raw: form });
      if (refusal(res) !== '400 bad_format note') wrong.push(`${method} ${path}: ${refusal(res)}`);
    }
    expect(tried).to.be.greaterThan(3);
    expect(wrong, `as ${account.id}`).to.deep.equal([]);
  });

  it('is refused where the 500s were found: search, a slug, the profile, an app, a report, the layout', async () => {
    const { site } = await signedInClient(app.client);
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', '/api/v1/games?q=a%00b', undefined, 'q'],
      ['GET', '/api/v1/games/%00', undefined, 'path'],
      ['PATCH', '/api/v1/profile', { bio: 'a\u0000b' }, 'bio'],
      ['POST', '/api/v1/account/apps', { name: 'a\u0000b' }, 'name'],
      ['POST', '/api/v1/reports', { target_type: 'profile', target_id: 'x', reason: 'spam', note: 'a\u0000b' }, 'note'],
      [
        'PUT',
        '/api/v1/profile/layout',
        { version: 0, layout: { sections: [{ title: 'a\u0000b' }] } },
        'layout.sections',
      ],
    ];
    for (const [method, path, body, field] of cases) {
      expect(refusal(await site.request(method, path, { body })), `${method} ${path}`).to.equal(
        `400 bad_format ${field}`,
      );
    }
  });
});
