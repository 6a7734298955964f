// The first step of every request, in one function because it runs on every request: give the request
// an id (echoed in `X-Request-Id`), turn anything thrown below into the spec's error body, and write one
// access line when the answer is ready. The query string is left out of the log on purpose: one-time
// tokens travel in it (magic links, email verification). Unknown errors become 500 `internal` with no
// trace in the answer; the trace goes to the log with the request id.
import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { methodNotAllowed, notFound, type ApiError } from '../../shared/platform/errors.js';
import type { Logger } from '../../shared/platform/logger.js';
import type { Metrics } from '../../shared/platform/metrics/metrics.js';
import type { AppState } from '../context.js';
import { toApiError } from './errors.js';

const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

function answer(ctx: Context, error: ApiError): void {
  ctx.status = error.status;
  ctx.set(error.headers);
  ctx.body = error.body();
}

export function requestFrame(log: Logger, metrics?: Metrics): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    const given = ctx.req.headers['x-request-id'];
    const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    try {
      await next();
      // The router leaves these bare: an unknown path, or a known path with a method it does not take.
      // Answered here, not thrown: a throw through this async frame cost more than the answer itself.
      if (ctx.body == null) {
        if (ctx.status === 404) answer(ctx, notFound(`No route matches ${ctx.method} ${ctx.path}.`));
        else if (ctx.status === 405 || ctx.status === 501) {
          answer(ctx, methodNotAllowed(ctx.response.get('Allow').split(/,\s*/).filter(Boolean)));
        }
      }
    } catch (error) {
      const mapped = toApiError(error);
      if (mapped.status >= 500) {
        log.error({ err: error, req_id: id, method: ctx.method, path: ctx.path }, 'request failed');
      }
      answer(ctx, mapped);
    }
    const line = {
      req_id: id,
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (ctx.status >= 500) log.error(line, 'request');
    else log.info(line, 'request');
    // By route pattern, never the raw path: ids in paths would make a series per resource.
    const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
    metrics?.observeRequest(ctx.method, route, ctx.status, (performance.now() - started) / 1000);
  };
}
