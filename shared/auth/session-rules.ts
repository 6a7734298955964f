// The session rules of DECISIONS as pure functions of a session, its account and the time.
import type { Account } from '../accounts/account.js';
import type { Session } from './models.js';

export const SESSION_IDLE_DAYS = 30;
export const RECENT_SIGN_IN_MS = 15 * 60 * 1000;
/** last_seen_at is written at most this often, not on every request. */
export const TOUCH_EVERY_MS = 5 * 60 * 1000;

/** Unused for 30 days: the session is over. */
export function sessionExpired(session: Pick<Session, 'last_seen_at'>, now = Date.now()): boolean {
  return now - session.last_seen_at.getTime() > SESSION_IDLE_DAYS * 24 * 3600 * 1000;
}

/** Two-factor is on and this session has not passed it yet. */
export function owesSecondFactor(
  account: Pick<Account, 'two_factor_enabled_at'>,
  session: Pick<Session, 'second_factor'>,
): boolean {
  return account.two_factor_enabled_at !== null && session.second_factor !== 'passed';
}

/** The session passed its second factor (Arcade's `mfa_session`). */
export function verifiedWithTwoFactor(session: Pick<Session, 'second_factor'>): boolean {
  return session.second_factor === 'passed';
}

/** Signed in (or re-authenticated) within the last 15 minutes. */
export function signedInRecently(session: Pick<Session, 'signed_in_at'>, now = Date.now()): boolean {
  return now - session.signed_in_at.getTime() <= RECENT_SIGN_IN_MS;
}

/**
 * The cookie counts only on requests from the site's own origin: the `Origin` header, or when there is
 * none, `Sec-Fetch-Site: same-origin`. Anything else (another site, or a client that says nothing) is
 * anonymous, which is what makes cross-site request forgery useless.
 */
export function fromOwnOrigin(headers: Record<string, string | string[] | undefined>, publicOrigin: string): boolean {
  const origin = headers.origin;
  if (typeof origin === 'string') return origin === publicOrigin;
  return headers['sec-fetch-site'] === 'same-origin';
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write under /api/v1, which a session owing its second factor may not make: it may read, pass the
 * factor and sign out (the sign-in service, outside /api/v1), nothing more.
 */
export function demandsSecondFactor(method: string, path: string): boolean {
  return !READS.has(method.toUpperCase()) && path.startsWith('/api/v1/');
}
