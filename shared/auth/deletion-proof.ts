// The proof `DELETE /account/data` asks for (spec: "Proof for DELETE /account/data", rules 2 to 4; rule 1,
// the second factor, is the route's access declaration). It lives with sign-in, whose passwords, codes and
// sessions it checks; the deletion itself is the account's (shared/accounts/data-deletion.ts).
import type { Account } from '../accounts/account.js';
import { forbidden } from '../platform/errors.js';
import type { Session } from './models.js';
import { verifyPassword } from './passwords.js';
import { consumeSecondFactorCode } from './second-factor.js';
import type { AuthServices } from './services.js';
import { signedInRecently } from './session-rules.js';

export interface DeletionProof {
  password?: string;
  code?: string;
}

/**
 * Rules 2 to 4: an account with a password sends it every time; a passwordless one needs a session from
 * the last 15 minutes or, with two-factor on, a code. Every password or code tried counts against 10 per
 * 15 minutes per account.
 */
export async function proveDeletion(
  services: AuthServices,
  account: Account,
  session: Session,
  proof: DeletionProof,
): Promise<void> {
  const subjects = [`account:${account.id}`];
  if (account.password_hash) {
    if (proof.password === undefined)
      throw forbidden('password_required', {}, 'Send the account password as `password`.');
    await services.deletionProofs.spend(subjects);
    if (!(await verifyPassword(account.password_hash, proof.password)))
      throw forbidden('password_incorrect', {}, 'The password is not right.');
    return;
  }
  const twoFactorOn = account.two_factor_enabled_at !== null;
  if (proof.code !== undefined && twoFactorOn) {
    await services.deletionProofs.spend(subjects);
    if (!(await consumeSecondFactorCode(services, account, proof.code))) {
      throw forbidden('code_incorrect', {}, 'The code is not right, or was already used.');
    }
    return;
  }
  if (!signedInRecently(session)) {
    throw forbidden(
      'reauthentication_required',
      { second_factor: twoFactorOn },
      twoFactorOn
        ? 'Sign in again, or send a code from your authenticator as `code`.'
        : 'Sign in again: deleting data needs a sign-in from the last 15 minutes.',
    );
  }
}
