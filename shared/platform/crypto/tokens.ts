// Random secrets handed to clients (session cookies, one-time links, key tokens) and the SHA-256 digest
// that is all the database ever holds of them.
import { createHash, randomBytes } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
