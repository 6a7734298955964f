// Decides who calls (Authentication rules 1, 2, 5, 6, 7). An Authorization header decides alone: a token
// not shaped like a key answers 401 `invalid_key` here, without a lookup; a well-formed one is resolved
// (and its allowance charged, in the same statement) by the route's access declaration, where a key
// that is unknown, revoked or expired also answers 401 `invalid_key`, even with a valid cookie beside
// it. Without the header, the session cookie counts only on requests from the site's own origin;
// anything else is anonymous.
import type { Middleware } from 'koa';
import { fromOwnOrigin } from '../../shared/auth/session-rules.js';
import { findSession, touchSession } from '../../shared/auth/sessions.js';
import { invalidKey } from '../../shared/platform/errors.js';
import { isKeyTokenShape } from '../../shared/keys/key-token.js';
import type { AppState } from '../context.js';

const BEARER = /^Bearer +(\S+) *$/i;

export function authenticate(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.caller = null;
    ctx.state.keyToken = null;
    const { knex, log, keyPrefix, publicOrigin, sessionCookie } = ctx.services;
    const header = ctx.req.headers.authorization;
    if (header !== undefined) {
      const token = BEARER.exec(header)?.[1];
      if (!token || !isKeyTokenShape(keyPrefix, token)) throw invalidKey();
      ctx.state.keyToken = token;
    } else if (ctx.req.headers.cookie !== undefined) {
      // Only requests that carry cookies pay for Koa's cookie jar.
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
