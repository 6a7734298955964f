// The events for integrations in the reference: one webhook per type of the catalogue, each a POST of the
// signed token whose claims schema names, as `data`, the very component the owner's read route answers with
// (DECISIONS: Events for integrations). Checked on the document the server answers, as the operations are:
// every schema valid, every $ref reaching something, every example true to its schema in the closed world.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { EVENT_TYPE_SCOPES, EVENT_TYPES, isDeletion, type EventType } from '../../shared/events/event-types.js';
import { componentValidators, describeErrors, type OpenApiDocument } from '../helpers/openapi-check.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  const?: unknown;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  examples?: unknown[];
  contentSchema?: Schema;
  contentMediaType?: string;
}
interface Webhook {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  'x-scope'?: string;
  parameters: Array<{ name: string; in: string; required: boolean; schema: Schema }>;
  requestBody: { required: boolean; description: string; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string }>;
}
interface Document {
  tags: Array<{ name: string }>;
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  webhooks: Record<string, Record<string, Webhook>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * The owner's read route of each type that carries a thing, as `METHOD /path`, best first: the first the
 * document has is the one held to. The journal's sessions and journeys, and captures, have no read by id;
 * their own lists (and for captures their edit) answer the same component.
 */
const READ_ROUTES: Partial<Record<EventType, string[]>> = {
  'library.entry.saved': ['GET /api/v1/library/{game}'],
  'journal.session.closed': ['GET /api/v1/journal/sessions/{id}', 'GET /api/v1/journal/sessions'],
  'journal.journey.saved': ['GET /api/v1/journal/journeys/{id}', 'GET /api/v1/journal/journeys'],
  'review.saved': ['GET /api/v1/reviews/{id}'],
  'list.saved': ['GET /api/v1/lists/{id}'],
  'screenshot.saved': ['GET /api/v1/screenshots/{id}', 'PATCH /api/v1/screenshots/{id}'],
  'notification.created': ['GET /api/v1/notifications'],
  'profile.updated': ['GET /api/v1/profile'],
};

const CLAIMS = ['iss', 'aud', 'jti', 'iat', 'type', 'seq', 'data'];

/** The object behind a `#/...` pointer, or undefined. */
function resolve(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((step) => decodeURIComponent(step).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, step) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined),
      document,
    );
}

/** Every `$ref` under a node, the component schemas it reaches followed too. */
function refsUnder(document: unknown, node: unknown, seen = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) refsUnder(document, item, seen);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        if (!seen.has(value)) {
          seen.add(value);
          refsUnder(document, resolve(document, value), seen);
        }
      } else if (key !== 'examples' && key !== 'example') refsUnder(document, value, seen);
    }
  }
  return seen;
}

describe('events for integrations in the reference (webhooks)', () => {
  let app: TestApp;
  let document: Document;

  before(async () => {
    app = await startTestApp();
    const response = await app.client.get('/api/v1/openapi.json');
    expect(response.status).to.equal(200);
    document = response.body as Document;
  });
  after(() => app.close());

  const post = (type: string) => document.webhooks[type].post;
  const claimsOf = (type: string) => {
    const ref = post(type).requestBody.content['application/jwt'].schema.contentSchema!.$ref!;
    return { ref, name: ref.split('/').at(-1)!, schema: resolve(document, ref) as Schema };
  };

  it('has one webhook for every type of the catalogue, and no other', () => {
    expect(Object.keys(document.webhooks).sort()).to.deep.equal([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      expect(Object.keys(document.webhooks[type]), type).to.deep.equal(['post']);
      expect(document.tags.map((tag) => tag.name)).to.include.members(post(type).tags);
      expect(post(type)['x-scope'], type).to.equal(EVENT_TYPE_SCOPES[type] ?? undefined);
    }
    const ids = EVENT_TYPES.map((type) => post(type).operationId);
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(new Set(ids).size).to.equal(ids.length);
    expect(operationIds).not.to.include.members(ids);
  });

  it('posts the token as application/jwt, with the Standard Webhooks headers, and says what each answer does', () => {
    for (const type of EVENT_TYPES) {
      const { requestBody, parameters, responses } = post(type);
      expect(requestBody.required, type).to.equal(true);
      expect(Object.keys(requestBody.content), type).to.deep.equal(['application/jwt']);
      const body = requestBody.content['application/jwt'].schema;
      expect(body, type).to.include({ type: 'string', contentMediaType: 'application/jwt' });
      for (const words of ['event+jwt', 'kid', 'ES256', '/api/v1/jwks', 'iss', 'aud', 'jti', 'seq']) {
        expect(requestBody.description, `${type}: ${words}`).to.include(words);
      }
      expect(parameters.map((p) => [p.name, p.in, p.required])).to.deep.equal([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
      ]);
      expect(Object.keys(responses).sort(), type).to.deep.equal(['2XX', '410', 'default']);
      expect(responses['410'].description).to.include('`gone`');
      expect(responses.default.description).to.include('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h');
      expect(responses.default.description).to.include('`failing`');
    }
  });

  it('names each type’s claims, requiring iss, aud, jti, iat, type, seq and data (and sub but on ping)', () => {
    for (const type of EVENT_TYPES) {
      const { name, schema } = claimsOf(type);
      expect(name, type).to.equal(`Event_${type}`);
      expect(schema, type).to.exist;
      expect(schema.required, type).to.include.members(CLAIMS);
      expect(schema.properties!.type, type).to.deep.equal({ const: type });
      if (type === 'ping') {
        expect(schema.properties).not.to.have.property('sub');
        expect(schema.properties!.data).to.include({ type: 'object' });
        expect(schema.properties!.data.properties).to.deep.equal({});
      } else {
        expect(schema.required, type).to.include('sub');
        expect(schema.properties!.sub, type).to.include({ type: 'string', format: 'uuid' });
      }
      expect(schema.properties!.seq, type).to.include({ type: 'integer' });
      expect(schema.properties!.iat, type).to.include({ type: 'integer' });
    }
  });

  it('gives a thing’s data the very component its owner’s read route answers with', () => {
    const carried = EVENT_TYPES.filter((type) => type !== 'ping' && !isDeletion(type));
    expect(Object.keys(READ_ROUTES).sort()).to.deep.equal([...carried].sort());
    for (const type of carried) {
      const read = READ_ROUTES[type]!.map((route) => route.split(' ')).find(
        ([method, path]) => document.paths[path]?.[method.toLowerCase()],
      );
      expect(read, `${type}: none of ${READ_ROUTES[type]!.join(', ')}`).to.exist;
      const [method, path] = read!;
      const answer = document.paths[path][method.toLowerCase()].responses['200'].content!['application/json'].schema;
      const data = answer.properties!.data;
      const component = data.$ref ?? data.items?.$ref;
      expect(component, `${method} ${path}`).to.match(/^#\/components\/schemas\//);
      expect(claimsOf(type).schema.properties!.data, type).to.deep.equal({ $ref: component });
    }
  });

  it('gives a deletion the ids of the thing only, named as its routes name it', () => {
    const data = (type: EventType) => claimsOf(type).schema.properties!.data;
    const member = (component: string, name: string) => document.components.schemas[component].properties![name];
    expect(data('library.entry.deleted')).to.deep.include({ required: ['game_id', 'entry_id'] });
    expect(data('library.entry.deleted').properties!.game_id).to.include({ type: 'integer' });
    expect(data('library.entry.deleted').properties!.entry_id).to.include({ type: 'string', format: 'uuid' });
    expect(data('review.deleted').properties!.id).to.include({ type: 'string', format: member('Review', 'id').format });
    expect(data('list.deleted').properties!.id).to.include({ type: member('GameList', 'id').type });
    expect(data('screenshot.deleted').properties!.id).to.include({ type: member('OwnCapture', 'id').type });
    for (const type of EVENT_TYPES.filter(isDeletion)) {
      expect(Object.keys(data(type).properties!), type).to.deep.equal(data(type).required);
    }
  });

  it('holds every schema of the webhooks to JSON Schema, and every $ref reaches something', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    for (const type of EVENT_TYPES) {
      const schemas = [
        ...post(type).parameters.map((p) => p.schema),
        ...Object.values(post(type).requestBody.content).map((c) => c.schema),
        claimsOf(type).schema,
      ];
      for (const schema of schemas) expect(ajv.validateSchema(schema), type).to.equal(true);
    }
    const refs = [...refsUnder(document, document.webhooks)];
    expect(refs.length).to.be.greaterThan(EVENT_TYPES.length);
    expect(refs.filter((ref) => resolve(document, ref) === undefined)).to.deep.equal([]);
  });

  it('gives each type an example of its claims that validates against its schema in the closed world', () => {
    const validatorOf = componentValidators(document as unknown as OpenApiDocument);
    for (const type of EVENT_TYPES) {
      const { name, schema } = claimsOf(type);
      expect(schema.examples, type).to.have.length(1);
      const example = schema.examples![0] as Record<string, unknown>;
      expect(example.type).to.equal(type);
      const validate = validatorOf(name);
      expect(validate(example), `${type}: ${describeErrors(validate.errors)}`).to.equal(true);
      // The same validator refuses a member the claims do not name, and a `data` of another shape.
      expect(validate({ ...example, extra: 1 }), type).to.equal(false);
      expect(validate({ ...example, data: 'nothing' }), type).to.equal(false);
    }
  });
});
