// Refuses U+0000 at the edge, once for every route, before authentication and routing: in the path
// (`%00`, named `path`), in the query (each parameter by name) and anywhere in a JSON body. Multipart
// fields are checked where they are read (multipart.ts). See shared/platform/validation/nul.ts for why.
import type { Middleware } from 'koa';
import { fieldWithNul, nulRefused } from '../../shared/platform/validation/nul.js';
import type { AppState } from '../context.js';

export function refuseNul(): Middleware<AppState> {
  return async (ctx, next) => {
    // The request line cannot carry a raw NUL; a path parameter gets one only from `%00`.
    if (/%00/i.test(ctx.path)) throw nulRefused('path');
    const field = fieldWithNul(ctx.query, '') ?? fieldWithNul(ctx.request.body, '');
    if (field !== null) throw nulRefused(field || 'body');
    return next();
  };
}
