// Conditional reads and cache headers for every answer of the router (issue #21, item 4; docs/api-notes.md).
//
// Cache-Control: a route that sets its own keeps it (the public catalog's `public, max-age=60`, the
// `no-store` of exports, layouts, moderation, health). Otherwise an error is `no-store`, whatever the route
// set before failing; an answer to a write (any method but GET and HEAD) and a read that sets a cookie are
// `no-store` (a new key's token, recovery codes, a sign-in); every other read is `private, no-cache` with
// `Vary: Authorization, Cookie, Origin`, since who calls (and whether the cookie counts) shapes it.
//
// ETag: a weak tag of the JSON text of a 200 answer to GET or HEAD, so any change in the body changes it.
// Streams (the export, event streams) get none. `If-None-Match` is compared weakly (RFC 9110 13.1.2):
// `*`, or any tag of the list whose opaque part equals ours, answers 304 with no body and the same
// headers (ETag, Cache-Control, Vary, X-RateLimit-*, X-Request-Id). The route runs either way, so a 304
// costs the allowance a 200 would. /media, /docs and /metrics are answered before this step and keep
// their own headers.
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../context.js';

/** Reads that depend on who calls: any cache may keep them only for this caller, and must ask first. */
export const PRIVATE_CACHE = 'private, no-cache';
export const NO_STORE = 'no-store';
/** What decides who calls (docs/api-notes.md: Who calls): the key, the cookie, and whether the cookie counts. */
export const CALLER_HEADERS = ['Authorization', 'Cookie', 'Origin'];

export function conditionalReads(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      // Rendered by requestFrame, which keeps the headers set so far.
      ctx.set('Cache-Control', NO_STORE);
      throw error;
    }
    // A bare 404 or 405 of the router becomes an error body in requestFrame.
    if (ctx.status >= 400) {
      ctx.set('Cache-Control', NO_STORE);
      return;
    }
    const read = ctx.method === 'GET' || ctx.method === 'HEAD';
    if (!ctx.response.get('Cache-Control')) {
      if (!read || ctx.response.headers['set-cookie'] !== undefined) {
        ctx.set('Cache-Control', NO_STORE);
      } else {
        ctx.set('Cache-Control', PRIVATE_CACHE);
        ctx.vary(CALLER_HEADERS);
      }
    }
    if (!read || ctx.status !== 200) return;
    let tag = ctx.response.get('ETag');
    if (!tag) {
      const text = jsonText(ctx.body, ctx.response.type);
      if (text === null) return;
      // Koa sends the text as it is (the Content-Type it set for the object stays): serialized once, where
      // Koa would have serialized the object again after the tag did (a page of the feed is 100 KB and more).
      if (typeof ctx.body !== 'string') ctx.body = text;
      tag = entityTag(text);
    }
    ctx.set('ETag', tag);
    const wanted = ctx.get('If-None-Match');
    // Koa drops the body, Content-Type and Content-Length of a 304, and keeps every other header.
    if (wanted && noneMatch(wanted, tag)) ctx.status = 304;
  };
}

function isStream(body: object): boolean {
  return (
    typeof (body as { pipe?: unknown }).pipe === 'function' ||
    body instanceof ReadableStream ||
    body instanceof Blob ||
    body instanceof Response
  );
}

/**
 * The JSON text of a body Koa answers as JSON (an object or array, or JSON text already serialized, as the
 * reference and the feed are), or null for anything else.
 */
export function jsonText(body: unknown, type: string): string | null {
  if (typeof body === 'string') return /[/+]json$/.test(type) ? body : null;
  if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && !isStream(body)) {
    // The very text Koa would send (it serializes with JSON.stringify, no spacing).
    return (JSON.stringify(body) as string | undefined) ?? null;
  }
  return null;
}

/** The weak tag of a JSON text: 22 base64url characters (132 bits) of its SHA-256. */
export function entityTag(text: string): string {
  return `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;
}

const ENTITY_TAG = /(?:W\/)?("[^"]*")/g;

/**
 * Whether `If-None-Match` matches `tag` by weak comparison (RFC 9110 8.8.3.2): `*` matches any current
 * representation; otherwise a listed tag matches when its opaque part (without `W/`) equals ours.
 * Anything that is not an entity tag is ignored.
 */
export function noneMatch(header: string, tag: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  for (const listed of value.matchAll(ENTITY_TAG)) if (listed[1] === opaque) return true;
  return false;
}
