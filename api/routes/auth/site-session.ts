// What the sign-in service's routes share: the own-origin guard of every state-changing call, the
// request's origin as a session records it, and the answer of a sign-in (cookie and body).
import type { Middleware } from 'koa';
import { presentSessionAccount, presentSessionSummary } from '../../../shared/auth/presenters.js';
import { fromOwnOrigin } from '../../../shared/auth/session-rules.js';
import type { SessionOrigin } from '../../../shared/auth/sessions.js';
import type { SignedIn } from '../../../shared/auth/sign-in.js';
import { forbidden } from '../../../shared/platform/errors.js';
import type { AppContext, AppState } from '../../context.js';
import { resolveKey } from '../../middleware/access.js';
import { withFacts } from '../../openapi/route-facts.js';
import { setSessionCookie } from '../../session-cookie.js';

export function ownOriginOnly(): Middleware<AppState> {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    // A bad key is 401 here as on every route; a good one is refused below.
    await resolveKey(ctx, null);
    if (!fromOwnOrigin(ctx.req.headers, ctx.services.publicOrigin)) {
      throw forbidden('cross_origin', {}, 'The sign-in service answers only the site’s own pages.');
    }
    if (ctx.state.caller?.key) throw forbidden(undefined, {}, 'API keys cannot use the sign-in service.');
    await next();
  };
  return withFacts(middleware, { ownOrigin: true });
}

export function origin(ctx: AppContext): SessionOrigin {
  return { userAgent: ctx.get('User-Agent') || null, ip: ctx.ip || null };
}

export function signedIn(ctx: AppContext, result: SignedIn, status = 200): void {
  setSessionCookie(ctx, result.token);
  ctx.status = status;
  ctx.body = {
    data: {
      account: presentSessionAccount(result.account),
      session: presentSessionSummary(result.session),
      second_factor_required: result.session.second_factor === 'pending',
    },
  };
}
