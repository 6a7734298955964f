// Every request gets an id, echoed in `X-Request-Id` and written on each log line about it. A caller's
// own id is kept when it is short and plain, so a trace can cross our boundary.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../context.js';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{8,64}$/;

export function requestId(): Middleware<AppState> {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = ACCEPTABLE.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
