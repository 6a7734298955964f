// Builds the OpenAPI 3.1 document from the router itself: every layer's path and methods, and the facts
// its middleware carries (route-facts.ts). Input schemas are the very JSON Schemas ajv enforces (OpenAPI
// 3.1 speaks JSON Schema), and errors are derived from the declarations plus each route's own. A route
// without a doc() is listed all the same, marked `x-undocumented`, which test/api/openapi.test.ts refuses.
import type Router from '@koa/router';
import { ApiError, statusOf, type ErrorCode } from '../../shared/platform/errors.js';
import type { SchemaObject } from '../../shared/platform/validation/ajv.js';
import { routeErrors } from './derived-errors.js';
import { demandsSecondFactor } from '../../shared/auth/session-rules.js';
import { takesIdempotencyKey } from '../middleware/idempotency.js';
import { accessWords, securityOf } from './access-words.js';
import { components, overview, tagOf, TAGS } from './overview.js';
import { mergeFacts, type ErrorRef, type RouteDoc, type RouteFacts } from './route-facts.js';
import { namedSchemas } from './response-schemas.js';
import { eventWebhooks } from './webhooks.js';
import './shapes/index.js';

export interface DocumentOptions {
  version: string;
  publicUrl: string;
}

export interface ErrorEntry {
  status: number;
  code: ErrorCode;
  reason: string | null;
}

/** `code:reason` split, with its status. */
export function errorEntry(ref: ErrorRef): ErrorEntry {
  const [code, reason] = ref.split(':') as [ErrorCode, string | undefined];
  return { status: statusOf(code), code, reason: reason ?? null };
}

/** `/profiles/:username/library` → `/profiles/{username}/library`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]);
}

function parameters(path: string, facts: RouteFacts) {
  const params = (facts.input?.params?.properties ?? {}) as Record<string, SchemaObject>;
  const query = facts.input?.query ?? facts.ownInput?.query;
  const required = new Set<string>((query?.required as string[] | undefined) ?? []);
  return [
    ...pathParameterNames(path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: params[name] ?? { type: 'string' },
    })),
    ...Object.entries((query?.properties ?? {}) as Record<string, SchemaObject>).map(([name, schema]) => ({
      name,
      in: 'query',
      required: required.has(name),
      ...(schema.description ? { description: schema.description } : {}),
      schema,
      // Lists arrive comma-separated (shared/platform/validation/coerce.ts).
      ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
    })),
  ];
}

function requestBody(facts: RouteFacts) {
  const form = facts.ownInput?.form;
  if (form) {
    return {
      required: true,
      description: `A form with the fields below and one file in \`${form.file}\`, at most ${form.maxBytes} bytes.`,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: [...form.required, form.file],
            properties: {
              ...form.fields,
              [form.file]: { type: 'string', contentMediaType: 'application/octet-stream' },
            },
          },
        },
      },
    };
  }
  if (facts.upload) {
    const { field, maxBytes } = facts.upload;
    return {
      required: true,
      description: `One file in the multipart field \`${field}\`, at most ${maxBytes} bytes.`,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: [field],
            properties: { [field]: { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
        },
      },
    };
  }
  const body = facts.input?.body;
  if (!body) return undefined;
  return {
    required: ((body.required as string[] | undefined) ?? []).length > 0,
    content: { 'application/json': { schema: body } },
  };
}

/** Headers every answer to a key carries, and the 429's, named once under `components.headers`. */
export const HEADERS = {
  'X-RateLimit-Limit': {
    description: 'The key’s allowance for this hour (sent to a live key, never to a session).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'What is left of it.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When it renews, in epoch seconds.', schema: { type: 'integer' } },
  'X-RateLimit-Resource': {
    description: 'The allowance charged.',
    schema: { type: 'string', enum: ['read', 'write', 'catalog'] },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
};
const RATE_LIMIT_HEADERS = Object.fromEntries(
  Object.keys(HEADERS)
    .filter((name) => name.startsWith('X-RateLimit-'))
    .map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);
const RETRY_AFTER = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };

/**
 * The statuses whose answers carry the key's allowance: a key is charged before anything else is asked, so
 * every answer of a route it may call carries the headers, refusals included, but not 401 (no live key) nor
 * 503 (the database that counts was not there); a session-only route charges a key only to refuse it (403).
 */
function chargedStatus(facts: RouteFacts, status: number): boolean {
  const access = facts.access;
  if (!access?.allowance) return false;
  if (access.kind === 'session') return status === 403;
  return status !== 401 && status !== 503;
}

function headersOf(facts: RouteFacts, status: number, own: Record<string, unknown> = {}) {
  const headers = {
    ...(chargedStatus(facts, status) ? RATE_LIMIT_HEADERS : {}),
    ...(status === 429 || status === 503 ? RETRY_AFTER : {}),
    ...own,
  };
  return Object.keys(headers).length ? { headers } : {};
}

function errorResponses(facts: RouteFacts, errors: ErrorEntry[]) {
  const byStatus = new Map<number, ErrorEntry[]>();
  for (const entry of errors) byStatus.set(entry.status, [...(byStatus.get(entry.status) ?? []), entry]);
  const responses: Record<string, unknown> = {};
  for (const [status, entries] of [...byStatus].sort(([a], [b]) => a - b)) {
    const names = entries.map((e) => (e.reason ? `\`${e.code}\` reason \`${e.reason}\`` : `\`${e.code}\``));
    responses[String(status)] = {
      description: names.join('; '),
      ...headersOf(facts, status),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(
            entries.map((e) => [
              e.reason ? `${e.code}:${e.reason}` : e.code,
              { value: new ApiError(e.code, undefined, { reason: e.reason ?? undefined }).body() },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}

/** Whether a media type's body is JSON (`application/json`, `application/jwk-set+json`, with parameters or not). */
export function isJsonMedia(media: string): boolean {
  return /^application\/([a-z0-9.-]+\+)?json(;|$)/i.test(media);
}

/** The schema of a success that is not JSON. */
const STREAM_SCHEMA = { type: 'string', description: 'A stream of server-sent events.' };

function successResponse(facts: RouteFacts) {
  const doc = facts.doc ?? UNDOCUMENTED;
  const media = doc.produces ?? 'application/json';
  const own = Object.fromEntries(
    Object.entries(doc.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  );
  const schema = isJsonMedia(media) ? doc.response : STREAM_SCHEMA;
  const content = {
    [media]: {
      ...(schema ? { schema } : {}),
      ...(doc.example !== undefined ? { example: doc.example } : {}),
    },
  };
  const status = doc.status ?? 200;
  return {
    [String(status)]: { description: doc.summary, ...headersOf(facts, status, own), content },
    ...Object.fromEntries(
      Object.entries(doc.alsoAnswers ?? {}).map(([other, when]) => [
        other,
        { description: when, ...headersOf(facts, Number(other), own), content },
      ]),
    ),
  };
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/(v1\/)?/, '')
    .split(/[/\-.]/)
    .filter(Boolean)
    .map((word) => (word.startsWith(':') ? `by_${word.slice(1)}` : word));
  return [method, ...words].join('_');
}

/** A route without words is still listed, marked, so the document never leaves out what the router runs. */
const UNDOCUMENTED: RouteDoc = { summary: 'Not documented' };

/**
 * A GET whose 200 is a JSON document (not a stream: the export is written as it is read, the play stream is
 * events) carries an ETag and answers 304 to a matching If-None-Match (api/middleware/conditional.ts).
 */
function conditional(method: string, facts: RouteFacts): boolean {
  const media = facts.doc?.produces;
  return method === 'get' && (media === undefined || media === 'application/jwk-set+json');
}

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'An `ETag` from an earlier answer, a comma-separated list of them, or `*`: 304 when one matches the current answer (weak comparison).',
  schema: { type: 'string' },
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Your key for this request (1 to 255 printable ASCII characters): the same key with the same request within 24 hours replays the first answer without running it again.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const ETAG = { ETag: { description: 'A weak tag of this answer, for `If-None-Match`.', schema: { type: 'string' } } };
const REPLAYED = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
};

function notModified(facts: RouteFacts) {
  return {
    '304': {
      description:
        'Not Modified: `If-None-Match` matched the current answer. No body; the same `ETag`, `Cache-Control` and allowance headers as the 200.',
      ...headersOf(facts, 304, ETAG),
    },
  };
}

/** The success responses with the headers conditional reads and idempotent writes add. */
function withProtocolHeaders(responses: Record<string, { headers?: object }>, extra: object) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      { ...response, headers: { ...(response.headers ?? {}), ...extra } },
    ]),
  );
}

function operation(method: string, path: string, facts: RouteFacts) {
  const doc = facts.doc ?? UNDOCUMENTED;
  const errors = routeErrors(method, path, facts).map(errorEntry);
  const body = requestBody(facts);
  const revalidates = conditional(method, facts);
  const idempotent = takesIdempotencyKey(method, path);
  const params = [
    ...parameters(path, facts),
    ...(revalidates ? [IF_NONE_MATCH] : []),
    ...(idempotent ? [IDEMPOTENCY_KEY] : []),
  ];
  const success = withProtocolHeaders(successResponse(facts), {
    ...(revalidates ? ETAG : {}),
    ...(idempotent ? REPLAYED : {}),
  });
  return {
    operationId: operationId(method, path),
    tags: [tagOf(path)],
    summary: doc.summary,
    description: [doc.description, accessWords(facts, demandsSecondFactor(method, path))].filter(Boolean).join('\n\n'),
    security: securityOf(facts),
    ...(facts.access && 'scope' in facts.access && facts.access.scope ? { 'x-scope': facts.access.scope } : {}),
    ...(facts.access?.allowance ? { 'x-allowance': facts.access.allowance } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...success, ...(revalidates ? notModified(facts) : {}), ...errorResponses(facts, errors) },
    'x-errors': errors,
    ...(facts.doc ? {} : { 'x-undocumented': true }),
  };
}

/** The layers of the router that answer requests (not `router.use` mounts), with their methods. */
export function routeLayers(router: Router) {
  return router.stack
    .map((layer) => ({
      path: layer.path as string,
      methods: layer.methods.filter((m) => m !== 'HEAD').map((m) => m.toLowerCase()),
      stack: layer.stack as unknown[],
    }))
    .filter((layer) => layer.methods.length > 0);
}

export function buildOpenApiDocument(router: Router, options: DocumentOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const layer of routeLayers(router)) {
    const facts = mergeFacts(layer.stack);
    for (const method of layer.methods) {
      (paths[openApiPath(layer.path)] ??= {})[method] = operation(method, layer.path, facts);
    }
  }
  // Events for integrations are no route: webhooks.ts builds them from the catalogue and these paths.
  const events = eventWebhooks(paths, options.publicUrl);
  return {
    openapi: '3.1.0',
    info: overview(options.version, options.publicUrl),
    servers: [{ url: options.publicUrl }],
    tags: [...TAGS, events.tag],
    paths,
    webhooks: events.webhooks,
    components: {
      ...components,
      schemas: { ...components.schemas, ...namedSchemas(), ...events.schemas },
      headers: HEADERS,
    },
  };
}
