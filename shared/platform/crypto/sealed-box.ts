// Secrets the service must read back later (TOTP secrets, private signing keys) are stored sealed with
// AES-256-GCM under a key derived from SECRET, so a copy of the database alone does not reveal them.
// Format: `v1.<iv>.<tag>.<ciphertext>` in base64url.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'jogatina-sealed-box', purpose, 32));
}

export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws when the box was changed or sealed under another secret or purpose. */
export function unseal(secret: string, purpose: string, box: string): string {
  const [version, iv, tag, body] = box.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed box');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
