// Turns anything thrown below it into the spec's error body. Unknown errors become 500 `internal` with
// no trace in the answer; the trace goes to the log with the request id.
import type { Middleware } from 'koa';
import { mapDatabaseError } from '../../shared/db/database-errors.js';
import { type ApiError, internal, invalidRequest, isApiError, methodNotAllowed, notFound } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { AppState } from '../context.js';

export function errorMapper(log: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body == null) {
        // The router leaves these bare: an unknown path, or a known path with a method it does not take.
        if (ctx.status === 404) throw notFound(`No route matches ${ctx.method} ${ctx.path}.`);
        if (ctx.status === 405 || ctx.status === 501) {
          throw methodNotAllowed(ctx.response.get('Allow').split(/,\s*/).filter(Boolean));
        }
      }
    } catch (error) {
      const answer = toApiError(error);
      if (answer.status >= 500) {
        log.error({ err: error, req_id: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'request failed');
      }
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body();
    }
  };
}

interface HttpLikeError {
  status?: number;
  expose?: boolean;
}

export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  const fromDatabase = mapDatabaseError(error);
  if (fromDatabase) return fromDatabase;
  // Errors raised by Koa and its router carry an HTTP status; keep the meaning, use our shape.
  const http = error as HttpLikeError;
  if (http?.expose && typeof http.status === 'number') {
    if (http.status === 404) return notFound();
    if (http.status === 413) return invalidRequest(undefined, { reason: 'too_large' });
    if (http.status === 415) return invalidRequest(undefined, { reason: 'unsupported_content_type' });
    if (http.status >= 400 && http.status < 500) return invalidRequest();
  }
  return internal();
}
