// Sign-up, sign-in by password or by magic link, email verification and the first password of a
// passwordless account.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { claimFirstUsername } from '../accounts/usernames.js';
import { conflict, firstPasswordReauthenticationRequired, unauthorized } from '../platform/errors.js';
import type { Session } from './models.js';
import { mailLink, useLink } from './one-time-links.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { AuthServices } from './services.js';
import { signedInRecently } from './session-rules.js';
import { startSession, type SessionOrigin } from './sessions.js';

export interface SignedIn {
  account: Account;
  session: Session;
  token: string;
}

function normalEmail(email: string): string {
  return email.trim();
}

async function findByEmail(knex: Knex | Knex.Transaction, email: string): Promise<Account | undefined> {
  return Account.query(knex).whereRaw('lower(email) = lower(?)', [email]).first();
}

/**
 * Counted first (per address and per email, whatever the answer), then the email is checked, and only
 * then is the password hashed: a taken email costs no hashing and sends no mail.
 */
export async function signUp(
  services: AuthServices,
  input: { email: string; password: string; username?: string },
  origin: SessionOrigin,
): Promise<SignedIn> {
  const email = normalEmail(input.email);
  await spendSignUp(services, email, origin.ip);
  const taken = () => conflict('email_taken', {}, 'An account with this email already exists.');
  if (await findByEmail(services.knex, email)) throw taken();
  const passwordHash = await hashPassword(input.password);
  try {
    return await services.knex.transaction(async (trx) => {
      let account = await Account.query(trx).insertAndFetch({ email, password_hash: passwordHash });
      if (input.username) account = await claimFirstUsername(trx, account.id, input.username);
      await mailLink(trx, services.publicUrl, 'verify_email', email, account.id);
      const { token, session } = await startSession(trx, account, origin);
      return { account, session, token };
    });
  } catch (error) {
    // Two sign-ups for one email at once: the unique index decides, and the loser hears email_taken.
    const failure = error as { constraint?: string; nativeError?: { constraint?: string } };
    if ((failure.constraint ?? failure.nativeError?.constraint) === 'accounts_email_unique') {
      throw taken();
    }
    throw error;
  }
}

/** One sign-up against both allowances, or none (the address's use goes back when the email is full). */
async function spendSignUp(services: AuthServices, email: string, ip: string | null): Promise<void> {
  const address = await services.signUpsPerAddress.reserve([`ip:${ip ?? 'unknown'}`]);
  try {
    await services.signUpsPerEmail.spend([`email:${email.toLowerCase()}`]);
  } catch (error) {
    await address.release();
    throw error;
  }
}

/** The same 401 for an unknown email, a wrong password and a passwordless account, on purpose. */
export async function signIn(
  services: AuthServices,
  input: { email: string; password: string },
  origin: SessionOrigin,
): Promise<SignedIn> {
  const subjects = [`email:${normalEmail(input.email).toLowerCase()}`, `ip:${origin.ip ?? 'unknown'}`];
  let account: Account | undefined;
  const ok = await services.signInAttempts.guess(subjects, async () => {
    account = await findByEmail(services.knex, normalEmail(input.email));
    return verifyPassword(account?.password_hash ?? null, input.password);
  });
  if (!account || !ok) throw unauthorized('The email or the password is not right.', 'invalid_credentials');
  const { token, session } = await startSession(services.knex, account, origin);
  return { account, session, token };
}

export async function requestMagicLink(services: AuthServices, email: string, ip: string | null): Promise<void> {
  const address = normalEmail(email);
  await services.mailRequests.spend([`email:${address.toLowerCase()}`, `ip:${ip ?? 'unknown'}`]);
  await services.knex.transaction(async (trx) => {
    const account = await findByEmail(trx, address);
    await mailLink(trx, services.publicUrl, 'magic_link', account?.email ?? address, account?.id ?? null);
  });
}

/** Signs in with a magic link; a new email becomes a passwordless account. Either way the email is verified. */
export async function signInWithMagicLink(
  services: AuthServices,
  token: string,
  origin: SessionOrigin,
): Promise<SignedIn> {
  return services.knex.transaction(async (trx) => {
    const link = await useLink(trx, 'magic_link', token);
    let account =
      (link.account_id && (await Account.query(trx).findById(link.account_id))) || (await findByEmail(trx, link.email));
    if (!account) {
      account = await Account.query(trx).insertAndFetch({ email: link.email, email_verified_at: new Date() });
    } else if (!account.email_verified_at) {
      account = await account.$query(trx).patchAndFetch({ email_verified_at: new Date() });
    }
    const { token: sessionToken, session } = await startSession(trx, account, origin);
    return { account, session, token: sessionToken };
  });
}

export async function verifyEmail(services: AuthServices, token: string): Promise<Account> {
  return services.knex.transaction(async (trx) => {
    const link = await useLink(trx, 'verify_email', token);
    const account = await Account.query(trx).findById(link.account_id!);
    if (!account) throw unauthorized('The account of this link no longer exists.');
    if (account.email_verified_at || account.email.toLowerCase() !== link.email.toLowerCase()) return account;
    return account.$query(trx).patchAndFetch({ email_verified_at: new Date() });
  });
}

/** Rule 11: a passwordless account sets its first password from a session younger than 15 minutes. */
export async function setFirstPassword(
  services: AuthServices,
  account: Account,
  session: Session,
  password: string,
): Promise<Account> {
  if (account.password_hash) throw conflict('password_already_set', {}, 'This account already has a password.');
  if (!signedInRecently(session)) throw firstPasswordReauthenticationRequired();
  const passwordHash = await hashPassword(password);
  const [updated] = await Account.query(services.knex)
    .patch({ password_hash: passwordHash })
    .where({ id: account.id })
    .whereNull('password_hash')
    .returning('*');
  if (!updated) throw conflict('password_already_set', {}, 'This account already has a password.');
  return updated as unknown as Account;
}
