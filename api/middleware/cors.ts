// Cross-origin use by browser integrations that hold a key (issue #21, item 5; docs/api-notes.md).
//
// Everything under /api/v1, `/health`, `/health/ready` and `/media/*` answers
// `Access-Control-Allow-Origin: *` and exposes the headers a client reads (allowance, request id,
// Retry-After, ETag, Idempotent-Replayed, Location), on every answer, errors included, whatever the
// Origin: one answer fits every caller, so caches need no `Vary: Origin`.
// `Access-Control-Allow-Credentials` is never sent, so a browser never hands a script an answer to a
// request that carried cookies; and the session cookie counts only from the site's own origin anyway
// (authenticate.ts), so a cross-origin request is anonymous unless it carries a key.
//
// A preflight (OPTIONS with Origin and Access-Control-Request-Method) to a path of the router answers 204
// with the methods the router takes on that path, found as the router finds them; to any other path it
// goes on like any request, so an unknown path is 404 and the browser refuses the call. /media takes no
// preflight: its files need none (GET without custom headers). The sign-in service (/api/auth/*,
// /api/account/password), /docs and /metrics get no CORS headers at all: the sign-in service answers only
// the site's own pages.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../context.js';
import { MEDIA_PATH } from '../routes/media-files.js';
import { API_PREFIX } from '../routes/versioned.js';

/** Request headers a cross-origin caller may send beyond the safelisted ones. */
export const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id'];

/** Response headers a cross-origin script may read beyond the safelisted ones. */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Resource',
  'X-Request-Id',
  'Retry-After',
  'ETag',
  'Idempotent-Replayed',
  'Location',
];

/** How long a browser may keep a preflight's answer (Chromium keeps at most two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** Whether a path answers cross-origin callers. */
export function openToOtherOrigins(path: string): boolean {
  return (
    path.startsWith(`${API_PREFIX}/`) || path === '/health' || path === '/health/ready' || path.startsWith(MEDIA_PATH)
  );
}

/** The methods the router takes on a path (HEAD with GET), as its own 405 and OPTIONS answers find them. */
export function routerMethods(router: Router<AppState>, path: string): string[] {
  const methods = new Set<string>();
  for (const layer of router.match(path, 'OPTIONS').path) for (const method of layer.methods) methods.add(method);
  return [...methods];
}

export function cors(router: Router<AppState>): Middleware<AppState> {
  const exposed = EXPOSED_HEADERS.join(', ');
  const allowed = ALLOWED_HEADERS.join(', ');
  return async (ctx, next) => {
    if (!openToOtherOrigins(ctx.path)) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    const preflight = ctx.method === 'OPTIONS' && ctx.get('Origin') !== '' && ctx.get('Access-Control-Request-Method');
    if (preflight && !ctx.path.startsWith(MEDIA_PATH)) {
      const methods = routerMethods(router, ctx.path);
      if (methods.length > 0) {
        ctx.set({
          'Access-Control-Allow-Methods': methods.join(', '),
          'Access-Control-Allow-Headers': allowed,
          'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
        });
        ctx.status = 204;
        return;
      }
    }
    ctx.set('Access-Control-Expose-Headers', exposed);
    return next();
  };
}
