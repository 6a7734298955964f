// Argon2id with the library's defaults (OWASP's minimum: 19 MiB, 2 passes). Verification of a missing
// hash still spends the same work, so "no such account" and "wrong password" take the same time.
import { hash, verify } from '@node-rs/argon2';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

let dummyHash: Promise<string> | null = null;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash('not-a-real-password-for-timing');
    await verify(await dummyHash, password);
    return false;
  }
  return verify(passwordHash, password);
}
