// Authenticator codes (TOTP, RFC 6238: 6 digits, 30 s) through `otpauth`, and recovery codes. A code is
// accepted once: the time step it matched is remembered and a code of that step or an earlier one is
// refused afterwards. Recovery codes are ten random codes, each usable once, stored as HMACs.
import { createHmac, randomInt } from 'node:crypto';
import * as OTPAuth from 'otpauth';

const ISSUER = 'Jogatina';
const PERIOD = 30;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function otpauthUri(secret: string, label: string): string {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    secret: OTPAuth.Secret.fromBase32(secret),
    period: PERIOD,
  }).toString();
}

/** The time step a valid code belongs to (one step of clock drift either way), or null. */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new OTPAuth.TOTP({ issuer: ISSUER, secret: OTPAuth.Secret.fromBase32(secret), period: PERIOD });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** The code of the current step, for tests and tools. */
export function currentTotp(secret: string, now = Date.now()): string {
  return new OTPAuth.TOTP({ issuer: ISSUER, secret: OTPAuth.Secret.fromBase32(secret), period: PERIOD }).generate({
    timestamp: now,
  });
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/** Ten codes like `k7pq-3xvm-h2ta` (about 70 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 3 }, () =>
      Array.from({ length: 4 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(''),
    ).join('-'),
  );
}

export function isRecoveryCodeShape(code: string): boolean {
  return /^[a-z0-9]{4}-?[a-z0-9]{4}-?[a-z0-9]{4}$/i.test(code.trim());
}

export function hashRecoveryCode(secret: string, code: string): string {
  const normal = code.trim().toLowerCase().replace(/-/g, '');
  return createHmac('sha256', secret).update(`recovery:${normal}`).digest('hex');
}
