// The sign-in service's answers (DECISIONS: Sign-in service; shared/auth/presenters.ts).
import {
  answer,
  boolean,
  component,
  dateTime,
  list,
  nullable,
  object,
  oneOf,
  string,
  uuid,
} from '../response-schemas.js';

export const SessionAccount = component(
  'SessionAccount',
  object({
    id: uuid(),
    email: string(),
    username: nullable(string('Null until the account takes one.')),
    has_password: boolean('False for an account made by a magic link that never set one.'),
    two_factor: boolean('Whether two-factor is on.'),
  }),
);

export const SECOND_FACTOR = ['none', 'pending', 'passed'] as const;

export const SessionSummary = component(
  'SessionSummary',
  object({
    id: uuid(),
    created_at: dateTime(),
    second_factor: oneOf(SECOND_FACTOR, 'none (two-factor off), pending (owed) or passed.'),
  }),
);

/** Sign-up, sign-in and the magic link's sign-in. */
export const SignedIn = component(
  'SignedIn',
  answer(
    object({
      account: SessionAccount,
      session: SessionSummary,
      second_factor_required: boolean('True when the session owes its second factor.'),
    }),
  ),
);

export const RecoveryCodes = list(string(), 'Ten one-time codes; earlier ones stop working.');

export const AUTH_ANSWERS = {
  signedIn: SignedIn,
  twoFactor: answer(object({ session: SessionSummary })),
  enableTwoFactor: answer(
    object({
      secret: string('Base32.'),
      otpauth_uri: string('An `otpauth://totp/` URI.'),
      recovery_codes: RecoveryCodes,
    }),
  ),
  twoFactorState: answer(object({ two_factor: boolean() })),
  recoveryCodes: answer(object({ recovery_codes: RecoveryCodes })),
  magicLink: answer(object({ sent: { const: true } })),
  verifyEmail: answer(object({ email: string(), email_verified: { const: true } })),
  session: answer(object({ account: SessionAccount, session: SessionSummary })),
  signOut: answer(object({ signed_out: { const: true } })),
  firstPassword: answer(object({ account: SessionAccount })),
};
