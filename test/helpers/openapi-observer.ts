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

export function observeResponses(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute;
      if (route) {
        const body = ctx.body as unknown;
        const error = plainObject(body) && plainObject(body.error) ? body.error : null;
        const code = error && typeof error.code === 'string' ? error.code : null;
        const reason = error && typeof error.reason === 'string' ? error.reason : null;
        const fields = ctx.status < 300 ? fieldsOf(body) : null;
        const key = [ctx.method, route, ctx.status, code, reason, fields?.body.join(), fields?.data.join()].join(' ');
        if (!observed.has(key)) {
          observed.set(key, { method: ctx.method, route, status: ctx.status, code, reason, fields, example: ctx.url });
        }
      }
    }
  };
}
