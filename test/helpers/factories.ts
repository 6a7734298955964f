// Builders of what tests need, through the domain's own code, each test owning its data.
import { randomBytes } from 'node:crypto';
import { Account } from '../../shared/accounts/account.js';
import { claimFirstUsername } from '../../shared/accounts/usernames.js';
import { Session } from '../../shared/auth/models.js';
import { mailLink } from '../../shared/auth/one-time-links.js';
import { hashPassword } from '../../shared/auth/passwords.js';
import { seal } from '../../shared/platform/crypto/sealed-box.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { newTotpSecret } from '../../shared/auth/totp.js';
import { createApp, updateApp } from '../../shared/keys/apps.js';
import { createKey } from '../../shared/keys/keys.js';
import type { Scope } from '../../shared/keys/scopes.js';
import type { TestClient } from './http-client.js';
import { SiteClient } from './site-client.js';

export const PASSWORD = 'correct horse battery';

export function uniqueEmail(tag = 'player'): string {
  return `${tag}-${randomBytes(4).toString('hex')}@example.test`;
}

export interface BuiltAccount {
  account: Account;
  email: string;
  password: string | null;
  totpSecret: string | null;
}

/** An account straight in the database (password hashed; two-factor already on when asked). */
export async function buildAccount(
  options: { password?: string | null; twoFactor?: boolean; username?: string } = {},
): Promise<BuiltAccount> {
  const email = uniqueEmail();
  const password = options.password === undefined ? PASSWORD : options.password;
  const totpSecret = options.twoFactor ? newTotpSecret() : null;
  let account = await Account.query(db()).insertAndFetch({
    email,
    password_hash: password ? await hashPassword(password) : null,
    two_factor_secret: totpSecret ? seal(config().secret, 'totp-secret', totpSecret) : null,
    two_factor_enabled_at: totpSecret ? new Date() : null,
  });
  const { username } = options;
  if (username) account = await db().transaction((trx) => claimFirstUsername(trx, account.id, username));
  return { account, email, password, totpSecret };
}

/** A site client signed in as a new account with a password. */
export async function signedInClient(http: TestClient, options: { twoFactor?: boolean } = {}) {
  const built = await buildAccount(options);
  const site = new SiteClient(http);
  const res = await site.post('/api/auth/sign-in', { email: built.email, password: built.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { ...built, site, sessionId: res.body.data.session.id as string };
}

/** A site client signed in as a new account without a password, through the magic link's real route. */
export async function passwordlessClient(http: TestClient) {
  const built = await buildAccount({ password: null });
  const site = new SiteClient(http);
  await db().transaction((trx) => mailLink(trx, 'http://localhost:3000', 'magic_link', built.email, built.account.id));
  const [mail] = await db()('email_outbox').where({ to_address: built.email }).orderBy('created_at', 'desc');
  const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
  const res = await site.get(`/api/auth/magic-link/verify?token=${token}`);
  if (res.status !== 200) throw new Error(`magic-link sign-in failed: ${res.status} ${res.text}`);
  return { ...built, site, sessionId: res.body.data.session.id as string };
}

/** An app of the account holding these scopes, and a live key of it. */
export async function appWithKey(
  accountId: string,
  scopes: Scope[] = [],
  keyOptions: { expires_in_days?: number | null } = {},
) {
  const app = await createApp(db(), accountId, { name: `app ${randomBytes(2).toString('hex')}` });
  if (scopes.length > 0) await updateApp(db(), accountId, app.id, { scopes });
  const { key, token } = await createKey(db(), config().keyPrefix, accountId, app.id, {
    name: 'test key',
    ...keyOptions,
  });
  return { app, key, token };
}

/** Moves a session's clock back, instead of sleeping. */
export async function ageSession(
  sessionId: string,
  minutes: number,
  field: 'signed_in_at' | 'last_seen_at' = 'signed_in_at',
): Promise<void> {
  await Session.query(db())
    .findById(sessionId)
    .patch({ [field]: new Date(Date.now() - minutes * 60 * 1000) });
}
