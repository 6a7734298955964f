// Watches every answer the test apps give, so that the reference can be held to what the server really
// does: after the run (root-hooks.ts), every error a route answered must be among the errors its
// operation lists, and every field of a success body must appear in the operation's example. Any subset
// of the suite checks what it saw, so a single test file run alone still checks its own routes.
import type { Middleware } from 'koa';

export interface Observation {
  method: string;
  /** The router's pattern, e.g. `/api/v1/profiles/:username/library`. */
  route: string;
  status: number;
  code: string | null;
  reason: string | null;
  /** Fields of a JSON success: `body` for the envelope, `data` for data (or its items, merged). */
  fields: { body: string[]; data: string[] } | null;
  /** A request that shows it, for the failure message. */
  example: string;
}

const observed = new Map<string, Observation>();

export function observations(): Observation[] {
  return [...observed.values()];
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The field names of `data`: an object's own, or those of every object item of a list. */
export function dataFields(data: unknown): string[] {
  const items = Array.isArray(data) ? data : [data];
  return [...new Set(items.filter(plainObject).flatMap((item) => Object.keys(item)))].sort();
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
        const key = [ctx.method, route, ctx.status, code, reason, fields?.body.join(), fields?.data.join()].join(' ');
        if (!observed.has(key)) {
          observed.set(key, { method: ctx.method, route, status: ctx.status, code, reason, fields, example: ctx.url });
        }
      }
    }
  };
}
