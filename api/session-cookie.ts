// The session cookie: HttpOnly, SameSite=Lax, the whole site, 30 days; `__Host-sid` with Secure on https.
// Whether it is Secure follows PUBLIC_URL, not the request: behind a proxy that terminates TLS and sends
// no X-Forwarded-Proto the request looks like http, and the cookie library would refuse to set it.
import { SESSION_IDLE_DAYS } from '../shared/auth/session-rules.js';
import type { AppContext } from './context.js';

/** The cookie jar, told whether the site is https, so a Secure cookie is never refused. */
function jar(ctx: AppContext, secure: boolean) {
  ctx.cookies.secure = secure;
  return ctx.cookies;
}

export function setSessionCookie(ctx: AppContext, token: string): void {
  const { name, secure } = ctx.services.sessionCookie;
  jar(ctx, secure).set(name, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_IDLE_DAYS * 24 * 3600 * 1000,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: AppContext): void {
  const { name, secure } = ctx.services.sessionCookie;
  jar(ctx, secure).set(name, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0, overwrite: true });
}
