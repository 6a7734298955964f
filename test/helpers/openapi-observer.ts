// Watches every answer the test apps give, so that the reference can be held to what the server really
// does: after the run (root-hooks.ts), every error a route answered must be among the errors its
// operation lists, every field of a success body must appear in the operation's example, and every JSON
// success body must validate against the operation's schema. Bodies are judged as they are answered
// (against the reference built from the app's router), so none is kept. Any subset of the suite checks
// what it saw, so a single test file run alone still checks its own routes.
import type { Middleware } from 'koa';
import { buildOpenApiDocument, openApiPath } from '../../api/openapi/build-document.js';
import { appRouter } from './app-router.js';
import { answerValidators, dataFields, describeErrors, type OpenApiDocument } from './openapi-check.js';

export interface Observation {
  method: string;
  /** The router's pattern, e.g. `/api/v1/profiles/:username/library`. */
  route: string;
  status: number;
  code: string | null;
  reason: string | null;
  /** Fields of a JSON success: `body` for the envelope, `data` for data (or its items, merged). */
  fields: { body: string[]; data: string[] } | null;
  /** Why a success body breaks its operation's schema, when it does. */
  invalid: string | null;
  /** A request that shows it, for the failure message. */
  example: string;
}

const observed = new Map<string, Observation>();

export function observations(): Observation[] {
  return [...observed.values()];
}

/**
 * Successes whose body is not a JSON value the observer can read, and where they are checked instead.
 * Any other success must be JSON and is validated.
 */
export const NOT_READ_HERE: Record<string, string> = {
  'GET /api/v1/account/export':
    'a stream: test/api/openapi-answers.test.ts downloads an export and validates it against its schema',
  'GET /api/v1/arcade/instances/{iid}/stream': 'server-sent events, not JSON',
};

/** How many success bodies were validated against their schema, and how many were valid. */
export const bodyCounts = { validated: 0, valid: 0 };

// OPENAPI_BODY_COUNTS=1 prints the counts when the run ends.
if (process.env.OPENAPI_BODY_COUNTS) {
  process.on('exit', () =>
    console.warn(`openapi observer: ${bodyCounts.validated} success bodies validated, ${bodyCounts.valid} valid`),
  );
}

let validatorOf: ReturnType<typeof answerValidators> | null = null;

/** The reference as the app's router makes it, built once: the schemas the bodies are judged by. */
function validators(): ReturnType<typeof answerValidators> {
  validatorOf ??= answerValidators(
    buildOpenApiDocument(appRouter(), { version: 'test', publicUrl: 'http://localhost:3000' }) as OpenApiDocument,
  );
  return validatorOf;
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

function fieldsOf(body: unknown): Observation['fields'] {
  if (!plainObject(body) || !('data' in body)) return null;
  return { body: Object.keys(body).sort(), data: dataFields(body.data) };
}

/**
 * The generic code of a status, for the few answers whose body the spec fixes literally with `error` as a
 * string (e.g. `{ error: "reauthentication_required", second_factor: false }`): that string is the reason.
 */
const LITERAL_CODE: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
};

function errorOf(status: number, body: unknown): { code: string | null; reason: string | null } {
  if (!plainObject(body)) return { code: null, reason: null };
  if (typeof body.error === 'string') return { code: LITERAL_CODE[status] ?? null, reason: body.error };
  const error = plainObject(body.error) ? body.error : null;
  return {
    code: error && typeof error.code === 'string' ? error.code : null,
    reason: error && typeof error.reason === 'string' ? error.reason : null,
  };
}

/** The body as the client reads it, JSON; a stream or bytes are not read. */
function jsonBody(body: unknown, type: string): { value: unknown } | null {
  if (typeof body === 'string') {
    if (!/json/i.test(type)) return null;
    try {
      return { value: JSON.parse(body) };
    } catch {
      return null;
    }
  }
  if (body === null || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown })?.pipe === 'function') return null;
  // As the client reads it: dates become strings, undefined members go.
  return typeof body === 'object' ? { value: JSON.parse(JSON.stringify(body)) } : null;
}

/** Why a success body breaks its schema, or null. */
function judge(method: string, route: string, status: number, body: unknown, type: string): string | null {
  const path = openApiPath(route);
  if (status < 200 || status >= 300 || status === 204 || method === 'HEAD') return null;
  if (NOT_READ_HERE[`${method} ${path}`] !== undefined) return null;
  const validate = validators()(method, path, status);
  // An operation or status the reference does not list is a finding of its own (openapi-check.ts).
  if (!validate) return null;
  const json = jsonBody(body, type);
  if (!json) return 'the body is not JSON';
  bodyCounts.validated += 1;
  if (validate(json.value)) {
    bodyCounts.valid += 1;
    return null;
  }
  return describeErrors(validate.errors);
}

export function observeResponses(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute;
      if (route) {
        const body = ctx.body as unknown;
        const { code, reason } = ctx.status >= 400 ? errorOf(ctx.status, body) : { code: null, reason: null };
        const fields = ctx.status < 300 ? fieldsOf(body) : null;
        let invalid: string | null;
        try {
          invalid = judge(ctx.method, route, ctx.status, body, ctx.response.type);
        } catch (error) {
          invalid = `the observer could not judge it: ${(error as Error).message}`;
        }
        const key = [
          ctx.method,
          route,
          ctx.status,
          code,
          reason,
          fields?.body.join(),
          fields?.data.join(),
          invalid,
        ].join(' ');
        if (!observed.has(key)) {
          observed.set(key, {
            method: ctx.method,
            route,
            status: ctx.status,
            code,
            reason,
            fields,
            invalid,
            example: ctx.url,
          });
        }
      }
    }
  };
}
