import { PASSKEY_NAME_MAX } from '../../../shared/auth/passkeys.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/auth/passwords.js';
import { text } from '../../../shared/content/content-fields.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

const email: SchemaObject = { type: 'string', format: 'email', maxLength: 254 };
const password: SchemaObject = { type: 'string', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX };
/** Username rules of the spec: 3 to 24 of a-z, 0-9 and _, neither first nor last _. */
export const usernameSchema: SchemaObject = { type: 'string', pattern: '^[a-z0-9][a-z0-9_]{1,22}[a-z0-9]$' };
const code: SchemaObject = { type: 'string', minLength: 6, maxLength: 20 };

const object = (properties: Record<string, SchemaObject>, required: string[]): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export const signUpBody = object({ email, password, username: usernameSchema }, ['email', 'password']);
export const signInBody = object({ email, password: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX } }, [
  'email',
  'password',
]);
export const codeBody = object({ code }, ['code']);
export const enableBody = object({ password: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX } }, []);
export const emailBody = object({ email }, ['email']);
export const passwordBody = object({ password }, ['password']);
export const emptyBody = object({}, []);
export const tokenQuery: SchemaObject = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', minLength: 20, maxLength: 100 } },
};

// Passkeys: the authenticator's answer as `@simplewebauthn/browser` hands it over. Its own members are
// checked for shape and size here and for meaning by the WebAuthn verification; members a newer browser
// adds pass through.
const base64url = (max: number): SchemaObject => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  pattern: '^[A-Za-z0-9_-]+$',
});
const credentialAnswer = (response: Record<string, SchemaObject>, required: string[]): SchemaObject => ({
  type: 'object',
  required: ['id', 'rawId', 'type', 'response'],
  properties: {
    id: base64url(1366),
    rawId: base64url(1366),
    type: { const: 'public-key' },
    authenticatorAttachment: { type: ['string', 'null'], maxLength: 40 },
    clientExtensionResults: { type: 'object' },
    response: { type: 'object', required, properties: response },
  },
});
const registrationAnswer = credentialAnswer(
  {
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65536),
    transports: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 40 } },
  },
  ['clientDataJSON', 'attestationObject'],
);
const authenticationAnswer = credentialAnswer(
  {
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(8192),
    signature: base64url(2048),
    userHandle: { type: ['string', 'null'], maxLength: 512 },
  },
  ['clientDataJSON', 'authenticatorData', 'signature'],
);
/** A passkey's name: 1 to 60 characters, not blank, no control characters. */
const passkeyName: SchemaObject = { ...text(PASSKEY_NAME_MAX, 1), allOf: [{ pattern: '\\S' }] };

export const passkeyRegisterBody = object({ response: registrationAnswer, name: passkeyName }, ['response']);
export const passkeySignInBody = object({ response: authenticationAnswer }, ['response']);
export const passkeyNameBody = object({ name: passkeyName }, ['name']);
