// API key tokens: KEY_PREFIX followed by 32 lowercase hex characters. Anything else is refused before any
// lookup, so malformed keys cost nothing and reveal nothing.
import { randomBytes } from 'node:crypto';
import { sha256 } from '../platform/crypto/tokens.js';

export function newKeyToken(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

export function isKeyTokenShape(prefix: string, token: string): boolean {
  return (
    token.length === prefix.length + 32 && token.startsWith(prefix) && /^[0-9a-f]{32}$/.test(token.slice(prefix.length))
  );
}

export function keyTokenHash(token: string): string {
  return sha256(token);
}
