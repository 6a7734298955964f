// Builds the OpenAPI 3.1 document from the router itself: every layer's path and methods, and the facts
// its middleware carries (route-facts.ts). Input schemas are the very JSON Schemas ajv enforces (OpenAPI
// 3.1 speaks JSON Schema), and errors are derived from the declarations plus each route's own. A route
// without a doc() is listed all the same, marked `x-undocumented`, which test/api/openapi.test.ts refuses.
import type Router from '@koa/router';
import { ApiError, statusOf, type ErrorCode } from '../../shared/platform/errors.js';
import type { SchemaObject } from '../../shared/platform/validation/ajv.js';
import { routeErrors } from './derived-errors.js';
import { demandsSecondFactor } from '../../shared/auth/session-rules.js';
import { accessWords, securityOf } from './access-words.js';
import { components, overview, tagOf, TAGS } from './overview.js';
import { mergeFacts, type ErrorRef, type RouteDoc, type RouteFacts } from './route-facts.js';

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
  const query = facts.input?.query;
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

function errorResponses(errors: ErrorEntry[]) {
  const byStatus = new Map<number, ErrorEntry[]>();
  for (const entry of errors) byStatus.set(entry.status, [...(byStatus.get(entry.status) ?? []), entry]);
  const responses: Record<string, unknown> = {};
  for (const [status, entries] of [...byStatus].sort(([a], [b]) => a - b)) {
    const names = entries.map((e) => (e.reason ? `\`${e.code}\` reason \`${e.reason}\`` : `\`${e.code}\``));
    responses[String(status)] = {
      description: names.join('; '),
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

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'The key’s allowance for this hour.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'What is left of it.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When it renews, in epoch seconds.', schema: { type: 'integer' } },
  'X-RateLimit-Resource': { description: 'read, write or catalog.', schema: { type: 'string' } },
};

function successResponse(facts: RouteFacts) {
  const doc = facts.doc ?? UNDOCUMENTED;
  const media = doc.produces ?? 'application/json';
  const charged = facts.access && 'allowance' in facts.access && facts.access.allowance;
  const headers = {
    ...(charged ? RATE_LIMIT_HEADERS : {}),
    ...Object.fromEntries(
      Object.entries(doc.headers ?? {}).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    ),
  };
  const content = {
    [media]: {
      ...(media === 'application/json' ? { schema: { $ref: '#/components/schemas/Success' } } : {}),
      ...(doc.example !== undefined ? { example: doc.example } : {}),
    },
  };
  const withHeaders = Object.keys(headers).length ? { headers } : {};
  return {
    [String(doc.status ?? 200)]: { description: doc.summary, ...withHeaders, content },
    ...Object.fromEntries(
      Object.entries(doc.alsoAnswers ?? {}).map(([status, when]) => [
        status,
        { description: when, ...withHeaders, content },
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

function operation(method: string, path: string, facts: RouteFacts) {
  const doc = facts.doc ?? UNDOCUMENTED;
  const errors = routeErrors(method, path, facts).map(errorEntry);
  const body = requestBody(facts);
  const params = parameters(path, facts);
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
    responses: { ...successResponse(facts), ...errorResponses(errors) },
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
  return {
    openapi: '3.1.0',
    info: overview(options.version),
    servers: [{ url: options.publicUrl }],
    tags: TAGS,
    paths,
    components,
  };
}
