// `GET /media/<key>` (and HEAD): stored media, served by the web process for both storage kinds so a
// local install and an S3 one answer the same URLs. Outside the versioned API and before body parsing
// and authentication on purpose: images need no caller, and browsers send the session cookie with
// same-origin image requests, which must not cost a session lookup each. API routes pay one prefix test.
//
// The path is used as the key without decoding: keys never need escaping, so anything encoded (`%2e%2e`,
// `%2f`) is not a key and answers 404 like a missing object, a bad key, or anything under `staging/`
// (unprocessed uploads are never served).
import type { Middleware } from 'koa';
import { methodNotAllowed, notFound } from '../../shared/platform/errors.js';
import { isValidMediaKey, STAGING_PREFIX } from '../../shared/platform/storage/media-storage.js';
import type { AppState } from '../context.js';

export const MEDIA_PATH = '/media/';

/** Keys are unique per upload and never rewritten, so a cached copy never goes stale. */
const CACHE_FOREVER = 'public, max-age=31536000, immutable';

/**
 * Stored files are user content: never sniffed into another type, and never able to run script or load
 * anything even when opened directly (an SVG or HTML file that slipped through would be inert).
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";

export function mediaFiles(): Middleware<AppState> {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(MEDIA_PATH)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed(['GET', 'HEAD']);
    const key = ctx.path.slice(MEDIA_PATH.length);
    if (!isValidMediaKey(key) || key.startsWith(STAGING_PREFIX)) throw noSuchFile();
    const stored = await ctx.services.media.get(key);
    if (!stored) throw noSuchFile();
    ctx.set({
      'Content-Type': stored.contentType,
      'Cache-Control': CACHE_FOREVER,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    });
    // Koa destroys the stream once the answer is sent, so a HEAD does not leave it (or its file) open.
    ctx.body = stored.body;
    ctx.length = stored.bytes;
  };
}

/** One answer for every kind of miss, so a probe learns nothing about which keys exist in staging. */
function noSuchFile() {
  return notFound('No media file is stored here.');
}
