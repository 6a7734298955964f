// The reference's words for the website's sign-in service (DECISIONS: Sign-in service; spec: Authentication
// rules 9 to 11; docs/api-notes.md: The sign-in service).
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { AUTH_ANSWERS } from '../../openapi/shapes/auth.js';

const account = {
  id: '2d7f4b8e-6a1c-4e3d-9b52-8c0a1f6e3d94',
  email: 'ana@example.com',
  username: 'ana_souza' as string | null,
  has_password: true,
  two_factor: false,
};
const session = { id: '9e4c1a7b-3d6f-4b28-a0e5-7f2d8c3b1a60', created_at: '2026-11-21T09:01:30.884Z' };
const signedIn = (secondFactor: 'none' | 'pending', changes: Partial<typeof account> = {}) => ({
  data: {
    account: { ...account, two_factor: secondFactor === 'pending', ...changes },
    session: { ...session, second_factor: secondFactor },
    second_factor_required: secondFactor === 'pending',
  },
});
const recoveryCodes = [
  'k7pq-3xvm-h2ta',
  'w9dc-4nfe-8rkb',
  'm2ht-qz6y-5jsa',
  'e8vu-7wcp-3gnd',
  'r4xb-9kfm-2tqe',
  'y6jn-5dha-8wpc',
  'b3sg-2rex-7mvk',
  'p5tq-6ycn-4hzu',
  'f7wd-8amk-3xrs',
  'u2ne-9vbj-6gct',
];
const SECRET = 'KGYCW7QSAQTX64WNN47HBANQWQPLGPOB';

export const COOKIE_SET = {
  'Set-Cookie': 'The session cookie `sid` (`__Host-sid` on https): HttpOnly, SameSite=Lax, 30 days unused.',
};
/** Rule 11: an account without a password needs a sign-in from the last 15 minutes for these. */
export const RECENT =
  'An account without a password needs a sign-in from the last 15 minutes, else 403 `reauthentication_required` with the spec’s body `{ code: "RECENT_SIGN_IN_REQUIRED", message }` (and our `error` member beside it).';
const ATTEMPTS = '5 failures per 15 minutes per account and per address, then 429 `too_many_attempts`.';
const CODE = '`code`: 6 digits from the authenticator, or an unused recovery code; each is accepted once.';
const CODE_ERRORS: ErrorRef[] = ['forbidden:code_incorrect', 'rate_limited:too_many_attempts'];

export const AUTH_DOCS = {
  signUp: doc({
    summary: 'Create an account and sign in',
    description:
      'Password of 10 to 128 characters; `username` optional (it may be taken later with `PUT /api/v1/account/username`). Sets the session cookie and mails a link to verify the email (valid 7 days). Emails are compared without case. Every sign-up counts, whatever its answer (an `email_taken` too): 10 an hour per address and 3 an hour per email, then 429 `too_many_attempts`; a taken email is answered before the password is hashed and mails nothing.',
    errors: ['conflict:email_taken', 'conflict:username_taken', 'rate_limited:too_many_attempts'],
    status: 201,
    headers: COOKIE_SET,
    response: AUTH_ANSWERS.signedIn,
    example: signedIn('none'),
  }),
  signIn: doc({
    summary: 'Sign in with email and password',
    description: `An unknown email, a wrong password and an account without a password all answer the same 401 \`invalid_credentials\`. ${ATTEMPTS.replace('account', 'email')} With two-factor on, \`second_factor_required\` is true: the session owes its second factor (\`POST /api/auth/two-factor\`) and routes that demand it answer 403 \`mfa_required\` until then.`,
    errors: ['unauthorized:invalid_credentials', 'rate_limited:too_many_attempts'],
    headers: COOKIE_SET,
    response: AUTH_ANSWERS.signedIn,
    example: signedIn('pending'),
  }),
  twoFactor: doc({
    summary: 'Pass the second factor',
    description: `For a session that owes it (409 \`second_factor_not_owed\` otherwise). ${CODE} A wrong code is 403 \`code_incorrect\`; ${ATTEMPTS} Passing also counts as a fresh sign-in for the 15-minute rules.`,
    errors: ['conflict:second_factor_not_owed', ...CODE_ERRORS],
    response: AUTH_ANSWERS.twoFactor,
    example: { data: { session: { ...session, second_factor: 'passed' } } },
  }),
  enableTwoFactor: doc({
    summary: 'Start turning on two-factor',
    description: `Send \`password\` when the account has one (403 \`password_required\`, \`password_incorrect\`; ${ATTEMPTS}). ${RECENT} Answers a new authenticator \`secret\`, its \`otpauth_uri\` and 10 recovery codes (earlier codes stop working). Two-factor is on only after \`POST /api/auth/two-factor/confirm\`.`,
    errors: [
      'forbidden:reauthentication_required',
      'conflict:two_factor_already_on',
      'forbidden:password_required',
      'forbidden:password_incorrect',
      'rate_limited:too_many_attempts',
    ],
    response: AUTH_ANSWERS.enableTwoFactor,
    example: {
      data: {
        secret: SECRET,
        otpauth_uri: `otpauth://totp/Jogatina:ana%40example.com?issuer=Jogatina&secret=${SECRET}&algorithm=SHA1&digits=6&period=30`,
        recovery_codes: recoveryCodes,
      },
    },
  }),
  confirmTwoFactor: doc({
    summary: 'Finish turning on two-factor',
    description: `A current 6-digit \`code\` of the secret from \`enable\` turns two-factor on, and this session counts as having passed it. Without \`enable\` first, 409 \`two_factor_not_pending\`. A wrong code is 403 \`code_incorrect\`; ${ATTEMPTS} ${RECENT}`,
    errors: [
      'forbidden:reauthentication_required',
      'conflict:two_factor_already_on',
      'conflict:two_factor_not_pending',
      ...CODE_ERRORS,
    ],
    response: AUTH_ANSWERS.twoFactorState,
    example: { data: { two_factor: true } },
  }),
  disableTwoFactor: doc({
    summary: 'Turn off two-factor',
    description: `${CODE} Recovery codes go with it, and no session owes a second factor any more. Already off: 409 \`two_factor_off\`. A wrong code is 403 \`code_incorrect\`; ${ATTEMPTS} ${RECENT}`,
    errors: ['forbidden:reauthentication_required', 'conflict:two_factor_off', ...CODE_ERRORS],
    response: AUTH_ANSWERS.twoFactorState,
    example: { data: { two_factor: false } },
  }),
  recoveryCodes: doc({
    summary: 'New recovery codes',
    description: `Ten new codes; the old ones stop working. Needs two-factor on (409 \`two_factor_off\`) and a session that passed it (403 \`mfa_required\`). ${RECENT}`,
    errors: ['forbidden:reauthentication_required', 'conflict:two_factor_off', 'forbidden:mfa_required'],
    response: AUTH_ANSWERS.recoveryCodes,
    example: { data: { recovery_codes: recoveryCodes } },
  }),
  magicLink: doc({
    summary: 'Email a sign-in link',
    description:
      'Mails a one-time link, valid 15 minutes. The answer is the same whether or not the email has an account; a new email becomes an account without a password when the link is used. 5 requests per 15 minutes per email and per address, then 429 `too_many_attempts`.',
    errors: ['rate_limited:too_many_attempts'],
    response: AUTH_ANSWERS.magicLink,
    example: { data: { sent: true } },
  }),
  magicLinkVerify: doc({
    summary: 'Sign in with an emailed link',
    description:
      'Opened from the email, so no origin rule applies: the one-time token is the proof. Sets the session cookie; a new email becomes an account without a password, and the email counts as verified. A link used, expired or never issued is 400 `token_invalid` with `field` `token`.',
    errors: ['invalid_request:token_invalid'],
    headers: COOKIE_SET,
    response: AUTH_ANSWERS.signedIn,
    example: signedIn('none', { username: null, has_password: false }),
  }),
  verifyEmail: doc({
    summary: 'Verify the email',
    description:
      'The link mailed at sign-up, valid 7 days and usable once. A link used, expired or never issued is 400 `token_invalid` with `field` `token`.',
    errors: ['invalid_request:token_invalid'],
    response: AUTH_ANSWERS.verifyEmail,
    example: { data: { email: 'ana@example.com', email_verified: true } },
  }),
  session: doc({
    summary: 'The current session',
    description:
      '`second_factor` is none (two-factor off), pending (owed) or passed. `has_password` false for an account made by a magic link that never set one.',
    headers: { 'Cache-Control': '`no-store`' },
    response: AUTH_ANSWERS.session,
    example: { data: { account, session: { ...session, second_factor: 'none' } } },
  }),
  signOut: doc({
    summary: 'Sign out',
    description:
      'Ends this session and clears its cookie. Other sessions go on (`DELETE /api/v1/account/sessions/{id}`).',
    headers: { 'Set-Cookie': 'Clears the session cookie.' },
    response: AUTH_ANSWERS.signOut,
    example: { data: { signed_out: true } },
  }),
  firstPassword: doc({
    summary: 'Set a first password',
    description:
      'For an account without a password (made by a magic link); 10 to 128 characters. An account that has one: 409 `password_already_set`. Needs a sign-in from the last 15 minutes, else 403 with the spec’s literal body `{ "error": "reauthentication_required", "second_factor": false }`.',
    errors: ['conflict:password_already_set', 'forbidden:reauthentication_required'],
    response: AUTH_ANSWERS.firstPassword,
    example: { data: { account } },
  }),
};
