// One-time links mailed to an address: magic sign-in (15 minutes) and email verification (7 days). Only
// the token's hash is stored; using a link marks it used in the same statement that reads it.
import type { Knex } from 'knex';
import { randomToken, sha256 } from '../platform/crypto/tokens.js';
import { queueEmail } from '../platform/email/outbox.js';
import { invalidRequest } from '../platform/errors.js';
import { AuthToken, type TokenPurpose } from './models.js';

const VALID_FOR_MS: Record<TokenPurpose, number> = {
  magic_link: 15 * 60 * 1000,
  verify_email: 7 * 24 * 3600 * 1000,
};

const PATH: Record<TokenPurpose, string> = {
  magic_link: '/api/auth/magic-link/verify',
  verify_email: '/api/auth/verify-email',
};

export async function mailLink(
  trx: Knex.Transaction,
  publicUrl: string,
  purpose: TokenPurpose,
  email: string,
  accountId: string | null,
): Promise<void> {
  const token = randomToken();
  await AuthToken.query(trx).insert({
    purpose,
    token_hash: sha256(token),
    email,
    account_id: accountId,
    expires_at: new Date(Date.now() + VALID_FOR_MS[purpose]),
  });
  const link = `${publicUrl}${PATH[purpose]}?token=${token}`;
  const [subject, text] =
    purpose === 'magic_link'
      ? [
          'Your Jogatina sign-in link',
          `Sign in to Jogatina with this link (valid 15 minutes, once):\n\n${link}\n\nIf you did not ask for it, ignore this message.`,
        ]
      : [
          'Confirm your email for Jogatina',
          `Confirm this address for your Jogatina account (valid 7 days):\n\n${link}\n`,
        ];
  await queueEmail(trx, { to: email, subject, text, kind: `auth.${purpose}` });
}

/** Uses a link once; a used, expired, unknown or malformed token answers 400 with field `token`. */
export async function useLink(trx: Knex.Transaction, purpose: TokenPurpose, token: string): Promise<AuthToken> {
  const [used] = await AuthToken.query(trx)
    .patch({ used_at: new Date() })
    .where({ purpose, token_hash: sha256(token) })
    .whereNull('used_at')
    .where('expires_at', '>', new Date())
    .returning('*');
  if (!used) {
    throw invalidRequest('This link is not valid any more: it was used, expired or never existed.', {
      field: 'token',
      reason: 'token_invalid',
    });
  }
  return used as unknown as AuthToken;
}
