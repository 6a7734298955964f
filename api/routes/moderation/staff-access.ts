// The second half of every moderation route's access (DECISIONS: session only, a moderator or admin,
// a session that passed two-factor). `sessionOnly` first refuses keys and anonymous callers; this then
// refuses members before anything else, so a member never learns that passing two-factor would help.
import type { Middleware } from 'koa';
import { isStaff } from '../../../shared/accounts/account.js';
import { verifiedWithTwoFactor } from '../../../shared/auth/session-rules.js';
import { forbidden } from '../../../shared/platform/errors.js';
import { withFacts } from '../../openapi/route-facts.js';
import type { AppState } from '../../context.js';
import { sessionCaller } from '../../middleware/access.js';

export function staffWithTwoFactor(): Middleware<AppState> {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    const { account, session } = sessionCaller(ctx);
    if (!isStaff(account)) throw forbidden(undefined, {}, 'Only moderators and admins may do this.');
    if (!verifiedWithTwoFactor(session)) {
      throw forbidden('mfa_required', {}, 'Moderation needs a session that passed two-factor.');
    }
    return next();
  };
  // Its refusals are the same on every moderation route, so the reference takes them from here.
  return withFacts(middleware, { errors: ['forbidden', 'forbidden:mfa_required'] });
}
