// The reference's words for passkeys (DECISIONS: Passkeys; spec: Authentication rule 11).
import { doc } from '../../openapi/route-facts.js';
import { AUTH_ANSWERS } from '../../openapi/shapes/auth.js';
import { COOKIE_SET, RECENT } from './auth-docs.js';

const passkey = {
  id: '5b1e9c3a-7d24-4f86-b0a1-2e6c8d4f9a73',
  name: 'Phone',
  created_at: '2026-11-26T10:12:04.118Z',
  last_used_at: null as string | null,
  backed_up: true,
};
const CHALLENGE = 'q7LhV0c2Yk1nT9xWmZpR4sGdE8uJfA3bNvC6oI5yHtQ';
const OWED = 'A session that owes its second factor is refused (403 `mfa_required`).';
const NOT_FOUND = 'Another account’s passkey, or an id that is none, is 404 `passkey_not_found`.';

export const PASSKEY_DOCS = {
  registerOptions: doc({
    summary: 'Start registering a passkey',
    description: `Answers, as \`data\`, the options \`startRegistration({ optionsJSON })\` of \`@simplewebauthn/browser\` takes: a discoverable credential with user verification, for the site's host name (\`PUBLIC_URL\` without its port), leaving out the account's passkeys. The challenge is valid 5 minutes and is used once. An account keeps at most 10 passkeys (409 \`passkeys_full\`). ${OWED} ${RECENT}`,
    errors: ['forbidden:mfa_required', 'forbidden:reauthentication_required', 'conflict:passkeys_full'],
    response: AUTH_ANSWERS.registrationOptions,
    example: {
      data: {
        challenge: CHALLENGE,
        rp: { name: 'Jogatina', id: 'jogatina.example' },
        user: { id: 'LX9LjmocTj2bUoysCh9uPZQ', name: 'ana@example.com', displayName: 'ana_souza' },
        pubKeyCredParams: [
          { alg: -8, type: 'public-key' },
          { alg: -7, type: 'public-key' },
          { alg: -257, type: 'public-key' },
        ],
        timeout: 300000,
        attestation: 'none',
        excludeCredentials: [],
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
        extensions: { credProps: true },
        hints: [],
      },
    },
  }),
  register: doc({
    summary: 'Register a passkey',
    description: `\`response\`: what \`startRegistration\` answered, for a challenge this account was given; \`name\` optional, 1 to 60 characters ("Passkey" when absent). An answer that does not verify (another origin or relying party, a challenge used, expired or someone else's, no user verification, a credential already registered) is 400 \`passkey_invalid\` and adds nothing. At most 10 passkeys (409 \`passkeys_full\`). ${OWED} ${RECENT} A passkey counts as two-factor for Arcade.`,
    errors: [
      'invalid_request:passkey_invalid',
      'forbidden:mfa_required',
      'forbidden:reauthentication_required',
      'conflict:passkeys_full',
    ],
    status: 201,
    response: AUTH_ANSWERS.passkey,
    example: { data: passkey },
  }),
  list: doc({
    summary: 'The account’s passkeys',
    description: `Newest first, without their keys. ${OWED}`,
    errors: ['forbidden:mfa_required'],
    headers: { 'Cache-Control': '`no-store`' },
    response: AUTH_ANSWERS.passkeys,
    example: { data: [{ ...passkey, last_used_at: '2026-11-26T18:40:51.003Z' }] },
  }),
  rename: doc({
    summary: 'Rename a passkey',
    description: `\`name\`: 1 to 60 characters, not blank. ${NOT_FOUND} ${OWED}`,
    errors: ['not_found:passkey_not_found', 'forbidden:mfa_required'],
    response: AUTH_ANSWERS.passkey,
    example: { data: { ...passkey, name: 'Work laptop' } },
  }),
  delete: doc({
    summary: 'Delete a passkey',
    description: `Any passkey may go, the last one too: the e-mail link is always a way in, so no deletion locks anyone out. ${NOT_FOUND} ${OWED} ${RECENT}`,
    errors: ['not_found:passkey_not_found', 'forbidden:mfa_required', 'forbidden:reauthentication_required'],
    response: AUTH_ANSWERS.passkeyDeleted,
    example: { data: { deleted: true } },
  }),
  signInOptions: doc({
    summary: 'Start signing in with a passkey',
    description:
      'Anonymous and usernameless: answers, as `data`, the options `startAuthentication({ optionsJSON })` of `@simplewebauthn/browser` takes, with user verification required and no credentials listed (the authenticator offers the passkeys it holds for this site). The challenge is valid 5 minutes and is used once. 30 per 15 minutes per address, then 429 `too_many_attempts`.',
    errors: ['rate_limited:too_many_attempts'],
    response: AUTH_ANSWERS.signInOptions,
    example: {
      data: { rpId: 'jogatina.example', challenge: CHALLENGE, timeout: 300000, userVerification: 'required' },
    },
  }),
  signIn: doc({
    summary: 'Sign in with a passkey',
    description:
      '`response`: what `startAuthentication` answered. Sets the session cookie; the session has passed its second factor (`second_factor: passed`, so it counts as Arcade’s `mfa_session`) and counts as a fresh sign-in. Anything that does not verify (an unknown credential, a bad signature, another origin or relying party, a challenge used or expired, no user verification, a signature counter that went backwards) is 401 `invalid_credentials`, as a wrong password is, and counts as a failed attempt: 5 failures per 15 minutes per account and per address, then 429 `too_many_attempts`.',
    errors: ['unauthorized:invalid_credentials', 'rate_limited:too_many_attempts'],
    headers: COOKIE_SET,
    response: AUTH_ANSWERS.signedIn,
    example: {
      data: {
        account: {
          id: '2d7f4b8e-6a1c-4e3d-9b52-8c0a1f6e3d94',
          email: 'ana@example.com',
          username: 'ana_souza',
          has_password: false,
          two_factor: false,
        },
        session: {
          id: '9e4c1a7b-3d6f-4b28-a0e5-7f2d8c3b1a60',
          created_at: '2026-11-26T18:40:51.003Z',
          second_factor: 'passed',
        },
        second_factor_required: false,
      },
    },
  }),
};
