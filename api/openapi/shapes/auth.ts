// The sign-in service's answers (DECISIONS: Sign-in service; shared/auth/presenters.ts).
import {
  answer,
  anyObject,
  boolean,
  component,
  constant,
  integer,
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

export const Passkey = component(
  'Passkey',
  object({
    id: uuid(),
    name: string('1 to 60 characters; "Passkey" unless one was given.'),
    created_at: dateTime(),
    last_used_at: nullable(dateTime('The last sign-in with it.')),
    backed_up: boolean('Whether the authenticator syncs it elsewhere (a multi-device passkey).'),
  }),
);

const credentialRef = object(
  { id: string('Base64url.'), type: constant('public-key'), transports: list(string()) },
  { optional: ['transports'] },
);

/** What `startRegistration` of `@simplewebauthn/browser` takes as `optionsJSON`. */
export const PasskeyRegistrationOptions = component(
  'PasskeyRegistrationOptions',
  object(
    {
      challenge: string('Base64url; valid 5 minutes, used once.'),
      rp: object({ name: string(), id: string('The host name of the site, without its port.') }),
      user: object({ id: string('Base64url.'), name: string(), displayName: string() }),
      pubKeyCredParams: list(object({ alg: integer('A COSE algorithm.'), type: constant('public-key') })),
      timeout: integer('Milliseconds.'),
      attestation: string(),
      excludeCredentials: list(credentialRef, 'The passkeys the account has already.'),
      authenticatorSelection: anyObject('A discoverable credential and user verification, both required.'),
      extensions: anyObject(),
      hints: list(string()),
    },
    { optional: ['extensions', 'hints'] },
  ),
);

/** What `startAuthentication` of `@simplewebauthn/browser` takes as `optionsJSON`. */
export const PasskeySignInOptions = component(
  'PasskeySignInOptions',
  object(
    {
      challenge: string('Base64url; valid 5 minutes, used once.'),
      rpId: string(),
      timeout: integer('Milliseconds.'),
      userVerification: constant('required'),
      allowCredentials: list(credentialRef),
    },
    { optional: ['allowCredentials'] },
  ),
);

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
  passkey: answer(Passkey),
  passkeys: answer(list(Passkey, 'Newest first.')),
  passkeyDeleted: answer(object({ deleted: constant(true) })),
  registrationOptions: answer(PasskeyRegistrationOptions),
  signInOptions: answer(PasskeySignInOptions),
};
