// Two-factor authentication: passing the second factor, turning it on (enable, then confirm with a
// code), turning it off, and new recovery codes. Every code check is attempt-limited, and a code (TOTP
// step or recovery code) is accepted once.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { seal, unseal } from '../platform/crypto/sealed-box.js';
import { conflict, forbidden, recentSignInRequired, type ApiError } from '../platform/errors.js';
import { RecoveryCode, Session } from './models.js';
import { verifyPassword } from './passwords.js';
import type { AuthServices } from './services.js';
import { owesSecondFactor, signedInRecently } from './session-rules.js';
import {
  hashRecoveryCode,
  isRecoveryCodeShape,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
} from './totp.js';

const SEAL_PURPOSE = 'totp-secret';

export interface CallerSession {
  account: Account;
  session: Session;
}

function attemptSubjects(account: Account, ip: string | null): string[] {
  return [`account:${account.id}`, `ip:${ip ?? 'unknown'}`];
}

/** Rule 11: for a passwordless account these actions (and passkeys') need a sign-in from the last 15 minutes. */
export function requireRecentIfPasswordless({ account, session }: CallerSession): void {
  if (!account.password_hash && !signedInRecently(session)) throw recentSignInRequired();
}

/**
 * Consumes a valid code: a TOTP code of a step after the last accepted one, or an unused recovery code.
 * Answers false when the code is wrong or already used.
 */
async function consumeCode(
  trx: Knex.Transaction,
  services: AuthServices,
  account: Account,
  secret: string,
  code: string,
): Promise<boolean> {
  const step = matchTotp(secret, code);
  if (step !== null) {
    const accepted = await Account.query(trx)
      .patch({ totp_last_step: step })
      .where({ id: account.id })
      .where((q) => q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step));
    return accepted === 1;
  }
  if (!isRecoveryCodeShape(code)) return false;
  const used = await RecoveryCode.query(trx)
    .patch({ used_at: new Date() })
    .where({ account_id: account.id, code_hash: hashRecoveryCode(services.secret, code) })
    .whereNull('used_at');
  return used === 1;
}

/** One guess under the attempt limit: refused with 429 past it, counted as a failure when wrong. */
async function limitedAttempt(
  services: AuthServices,
  account: Account,
  ip: string | null,
  attempt: () => Promise<boolean>,
  refusal: () => ApiError,
): Promise<void> {
  if (await services.signInAttempts.guess(attemptSubjects(account, ip), attempt)) return;
  throw refusal();
}

async function checkCode(
  services: AuthServices,
  caller: CallerSession,
  secret: string,
  code: string,
  ip: string | null,
): Promise<void> {
  await limitedAttempt(
    services,
    caller.account,
    ip,
    () => services.knex.transaction((trx) => consumeCode(trx, services, caller.account, secret, code)),
    () => forbidden('code_incorrect', {}, 'The code is not right, or was already used.'),
  );
}

function activeSecret(services: AuthServices, account: Account): string {
  return unseal(services.secret, SEAL_PURPOSE, account.two_factor_secret!);
}

/** The session that owes its second factor passes it with an authenticator or recovery code. */
export async function passSecondFactor(
  services: AuthServices,
  caller: CallerSession,
  code: string,
  ip: string | null,
): Promise<Session> {
  if (!owesSecondFactor(caller.account, caller.session)) {
    throw conflict('second_factor_not_owed', {}, 'This session owes no second factor.');
  }
  await checkCode(services, caller, activeSecret(services, caller.account), code, ip);
  return caller.session.$query(services.knex).patchAndFetch({ second_factor: 'passed', signed_in_at: new Date() });
}

async function proveWithPassword(
  services: AuthServices,
  caller: CallerSession,
  password: string | undefined,
  ip: string | null,
): Promise<void> {
  if (!caller.account.password_hash) return;
  if (password === undefined) throw forbidden('password_required', {}, 'Send the account password as `password`.');
  const passwordHash = caller.account.password_hash;
  await limitedAttempt(
    services,
    caller.account,
    ip,
    () => verifyPassword(passwordHash, password),
    () => forbidden('password_incorrect', {}, 'The password is not right.'),
  );
}

async function replaceRecoveryCodes(
  trx: Knex.Transaction,
  services: AuthServices,
  accountId: string,
): Promise<string[]> {
  const codes = newRecoveryCodes();
  await RecoveryCode.query(trx).delete().where({ account_id: accountId });
  await RecoveryCode.query(trx).insert(
    codes.map((code) => ({ account_id: accountId, code_hash: hashRecoveryCode(services.secret, code) })),
  );
  return codes;
}

/** Step one of turning two-factor on: a new secret and recovery codes; on only after `confirm`. */
export async function enableTwoFactor(
  services: AuthServices,
  caller: CallerSession,
  password: string | undefined,
  ip: string | null,
) {
  requireRecentIfPasswordless(caller);
  if (caller.account.two_factor_enabled_at)
    throw conflict('two_factor_already_on', {}, 'Two-factor authentication is already on.');
  await proveWithPassword(services, caller, password, ip);
  const secret = newTotpSecret();
  const recoveryCodes = await services.knex.transaction(async (trx) => {
    await Account.query(trx)
      .findById(caller.account.id)
      .patch({ two_factor_pending_secret: seal(services.secret, SEAL_PURPOSE, secret) });
    return replaceRecoveryCodes(trx, services, caller.account.id);
  });
  return { secret, otpauth_uri: otpauthUri(secret, caller.account.email), recovery_codes: recoveryCodes };
}

/** Step two: a valid code from the new secret turns two-factor on; this session counts as verified. */
export async function confirmTwoFactor(
  services: AuthServices,
  caller: CallerSession,
  code: string,
  ip: string | null,
): Promise<void> {
  requireRecentIfPasswordless(caller);
  if (caller.account.two_factor_enabled_at)
    throw conflict('two_factor_already_on', {}, 'Two-factor authentication is already on.');
  if (!caller.account.two_factor_pending_secret) {
    throw conflict('two_factor_not_pending', {}, 'Start with POST /api/auth/two-factor/enable.');
  }
  const secret = unseal(services.secret, SEAL_PURPOSE, caller.account.two_factor_pending_secret);
  let step: number | null = null;
  await limitedAttempt(
    services,
    caller.account,
    ip,
    async () => (step = matchTotp(secret, code)) !== null,
    () => forbidden('code_incorrect', {}, 'The code is not right.'),
  );
  await services.knex.transaction(async (trx) => {
    await Account.query(trx).findById(caller.account.id).patch({
      two_factor_secret: caller.account.two_factor_pending_secret,
      two_factor_pending_secret: null,
      two_factor_enabled_at: new Date(),
      totp_last_step: step,
    });
    await Session.query(trx).findById(caller.session.id).patch({ second_factor: 'passed' });
  });
}

/** A valid code turns two-factor off; recovery codes go with it and no session owes a second factor. */
export async function disableTwoFactor(
  services: AuthServices,
  caller: CallerSession,
  code: string,
  ip: string | null,
): Promise<void> {
  requireRecentIfPasswordless(caller);
  if (!caller.account.two_factor_enabled_at) throw conflict('two_factor_off', {}, 'Two-factor authentication is off.');
  await checkCode(services, caller, activeSecret(services, caller.account), code, ip);
  await services.knex.transaction(async (trx) => {
    await Account.query(trx).findById(caller.account.id).patch({
      two_factor_secret: null,
      two_factor_pending_secret: null,
      two_factor_enabled_at: null,
      totp_last_step: null,
    });
    await RecoveryCode.query(trx).delete().where({ account_id: caller.account.id });
    // Sessions that owed it owe nothing now; those that passed a second factor (a code, or a passkey's
    // sign-in) stay verified: what they proved does not change.
    await Session.query(trx)
      .patch({ second_factor: 'none' })
      .where({ account_id: caller.account.id, second_factor: 'pending' });
  });
}

/** Ten new recovery codes; the old ones stop working. Only from a session that passed its second factor. */
export async function renewRecoveryCodes(services: AuthServices, caller: CallerSession): Promise<string[]> {
  requireRecentIfPasswordless(caller);
  if (!caller.account.two_factor_enabled_at) throw conflict('two_factor_off', {}, 'Two-factor authentication is off.');
  if (owesSecondFactor(caller.account, caller.session)) throw forbidden('mfa_required');
  return services.knex.transaction((trx) => replaceRecoveryCodes(trx, services, caller.account.id));
}

/** Checks and uses up an authenticator or recovery code of an account with two-factor on. */
export function consumeSecondFactorCode(services: AuthServices, account: Account, code: string): Promise<boolean> {
  return services.knex.transaction((trx) => consumeCode(trx, services, account, activeSecret(services, account), code));
}
