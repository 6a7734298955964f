import { PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/auth/passwords.js';
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
