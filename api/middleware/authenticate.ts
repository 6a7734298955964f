// Decides who calls (Authentication rules 1, 2, 5, 6, 7). An Authorization header decides alone: a key
// that is malformed, unknown, revoked or expired answers 401 `invalid_key`, even on public routes and even
// with a valid session cookie beside it. Without the header, the session cookie counts only on requests
// from the site's own origin; anything else is anonymous.
import type { Middleware } from 'koa';
import { fromOwnOrigin } from '../../shared/auth/session-rules.js';
import { findSession, touchSession } from '../../shared/auth/sessions.js';
import { invalidKey } from '../../shared/errors.js';
import { findKeyCaller, noteKeyUse } from '../../shared/keys/key-caller.js';
import { isKeyTokenShape } from '../../shared/keys/key-token.js';
import type { AppState } from '../context.js';

const BEARER = /^Bearer +(\S+) *$/i;

export function authenticate(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.caller = null;
    const { knex, log, keyPrefix, publicOrigin, sessionCookie } = ctx.services;
    const header = ctx.req.headers.authorization;
    if (header !== undefined) {
      const token = BEARER.exec(header)?.[1];
      // Not shaped like a token: refused without a lookup.
      if (!token || !isKeyTokenShape(keyPrefix, token)) throw invalidKey();
      const found = await findKeyCaller(knex, token);
      if (!found) throw invalidKey();
      ctx.state.caller = { account: found.account, key: found.key, session: null };
      noteKeyUse(knex, found.key).catch((error) => log.warn({ err: error }, 'could not record key use'));
    } else {
      const token = ctx.cookies.get(sessionCookie.name);
      if (token && fromOwnOrigin(ctx.req.headers, publicOrigin)) {
        const found = await findSession(knex, token);
        if (found) {
          ctx.state.caller = { account: found.account, key: null, session: found.session };
          touchSession(knex, found.session).catch((error) => log.warn({ err: error }, 'could not record session use'));
        }
      }
    }
    await next();
  };
}
