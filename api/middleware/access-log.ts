// One structured line per request once the answer is sent. The query string is left out on purpose:
// one-time tokens travel in it (magic links, email verification).
import type { Middleware } from 'koa';
import type { Logger } from '../../shared/logger.js';
import type { AppState } from '../context.js';

export function accessLog(log: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    ctx.res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        req_id: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.res.headersSent ? ctx.status : 0,
        ms: Math.round(ms * 10) / 10,
        bytes: ctx.response.length ?? undefined,
        aborted: !ctx.res.writableFinished || undefined,
      };
      if (ctx.status >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    });
    await next();
  };
}
