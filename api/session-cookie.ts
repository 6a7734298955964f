// The session cookie: HttpOnly, SameSite=Lax, the whole site, 30 days; `__Host-sid` with Secure on https.
import { SESSION_IDLE_DAYS } from '../shared/auth/session-rules.js';
import type { AppContext } from './context.js';

export function setSessionCookie(ctx: AppContext, token: string): void {
  const { name, secure } = ctx.services.sessionCookie;
  ctx.cookies.set(name, token, {
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
  ctx.cookies.set(name, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0, overwrite: true });
}
