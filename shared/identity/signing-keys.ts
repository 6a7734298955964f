// The identity key set (spec: Key set, Authentication rule 6; DECISIONS: Arcade): ES256 keys that sign
// identity tokens and data events. States: `next` (published ahead, so caches know it before it signs),
// `current` (signs), `retiring` (no longer signs, still verifies for 24 hours). Private keys are sealed
// with SECRET at rest. The current key is kept in memory for SIGNER_CACHE_MS, so signing many tokens a
// second does not unseal each time; a rotation is picked up by every process within that window, and the
// key it replaced keeps verifying meanwhile.
import { randomBytes, webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type KeyLike } from 'jose';
import type { Knex } from 'knex';
import { seal, unseal } from '../platform/crypto/sealed-box.js';
import { SigningKey } from './models.js';

export const SIGNER_CACHE_MS = 10_000;
/** DECISIONS: retiring keys leave the set after 24 hours. */
export const RETIRING_FOR_MS = 24 * 3600 * 1000;

const PURPOSE = 'signing-key';

export class NoSigningKeyError extends Error {
  constructor() {
    super('no current signing key: run the migrations and start the service, or npm run op -- keys rotate');
  }
}

async function newKey(secret: string) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(12).toString('base64url');
  const pub = await exportJWK(publicKey);
  const priv = await exportJWK(privateKey);
  return {
    kid,
    public_jwk: { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y },
    private_sealed: seal(secret, PURPOSE, JSON.stringify(priv)),
  };
}

/** A current and a next key when there is no current one; safe when several processes start at once. */
export async function ensureSigningKeys(knex: Knex, secret: string): Promise<void> {
  await knex.transaction(async (trx) => {
    // One process at a time decides; the others then find the keys it made.
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['jogatina:signing-keys']);
    const current = await SigningKey.query(trx).where({ state: 'current' }).select('kid').first();
    if (!current) {
      const next = await SigningKey.query(trx).where({ state: 'next' }).select('kid').first();
      if (next) {
        await SigningKey.query(trx).where({ kid: next.kid }).patch({ state: 'current', promoted_at: trx.fn.now() });
      } else {
        await SigningKey.query(trx).insert({ ...(await newKey(secret)), state: 'current', promoted_at: trx.fn.now() });
      }
    }
    if (!(await SigningKey.query(trx).where({ state: 'next' }).select('kid').first())) {
      await SigningKey.query(trx).insert({ ...(await newKey(secret)), state: 'next' });
    }
  });
}

/** next → current, current → retiring, and a new next. Answers the new current kid. */
export async function rotateSigningKeys(knex: Knex, secret: string): Promise<string> {
  await ensureSigningKeys(knex, secret);
  const kid = await knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['jogatina:signing-keys']);
    // ensureSigningKeys just made sure of it, under the same lock.
    const next = (await SigningKey.query(trx).where({ state: 'next' }).select('kid').first())!;
    await SigningKey.query(trx).where({ state: 'current' }).patch({ state: 'retiring', retired_at: trx.fn.now() });
    await SigningKey.query(trx).where({ kid: next.kid }).patch({ state: 'current', promoted_at: trx.fn.now() });
    await SigningKey.query(trx).insert({ ...(await newKey(secret)), state: 'next' });
    return next.kid;
  });
  forgetSigner();
  return kid;
}

/** Retiring keys past 24 hours leave the set for good. */
export async function purgeRetiredKeys(knex: Knex, now = Date.now()): Promise<number> {
  return SigningKey.query(knex)
    .where({ state: 'retiring' })
    .where('retired_at', '<', new Date(now - RETIRING_FOR_MS))
    .delete();
}

/** The published set: next, current and retiring keys younger than 24 hours; public members only. */
export async function publicKeySet(knex: Knex, now = Date.now()) {
  const rows = await SigningKey.query(knex)
    .where((q) =>
      q
        .whereIn('state', ['next', 'current'])
        .orWhere((r) => r.where({ state: 'retiring' }).where('retired_at', '>=', new Date(now - RETIRING_FOR_MS))),
    )
    .orderBy('created_at', 'desc')
    .select('kid', 'state', 'public_jwk');
  return {
    keys: rows.map((row) => ({
      kty: row.public_jwk.kty,
      crv: row.public_jwk.crv,
      x: row.public_jwk.x,
      y: row.public_jwk.y,
      kid: row.kid,
      alg: 'ES256',
      use: 'sig',
    })),
  };
}

type Signer = { kid: string; key: KeyLike | Uint8Array | webcrypto.CryptoKey };
/**
 * The current key, read once for SIGNER_CACHE_MS: kept as the read itself, so a batch of data events that
 * asks for it all at once shares one read. A failed read is not kept.
 */
let cached: { signer: Promise<Signer>; until: number } | null = null;

function currentSigner(knex: Knex, secret: string): Promise<Signer> {
  if (cached && cached.until > Date.now()) return cached.signer;
  const signer = loadSigner(knex, secret);
  const entry = { signer, until: Date.now() + SIGNER_CACHE_MS };
  cached = entry;
  signer.catch(() => {
    if (cached === entry) cached = null;
  });
  return signer;
}

async function loadSigner(knex: Knex, secret: string): Promise<Signer> {
  const row = await SigningKey.query(knex).where({ state: 'current' }).select('kid', 'private_sealed').first();
  if (!row) throw new NoSigningKeyError();
  // A Web Crypto key, not a KeyObject: jose signs with it on libuv's threads, so a worker signing a batch
  // of data events signs them side by side and off its event loop (0.05 ms a token against 0.2 ms, in
  // turn on the main thread, with the KeyObject importJWK makes).
  const jwk = JSON.parse(unseal(secret, PURPOSE, row.private_sealed)) as JWK;
  const key = await webcrypto.subtle.importKey(
    'jwk',
    jwk as webcrypto.JsonWebKey,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  return { kid: row.kid, key };
}

/** A compact JWT signed ES256 by the current key, with `kid` (and `typ` when given) and `iat`. */
export async function signToken(
  knex: Knex,
  secret: string,
  claims: Record<string, unknown>,
  options: { typ?: string; expiresInSeconds?: number } = {},
): Promise<string> {
  const { kid, key } = await currentSigner(knex, secret);
  const jwt = new SignJWT(claims).setProtectedHeader({
    alg: 'ES256',
    kid,
    ...(options.typ ? { typ: options.typ } : {}),
  });
  if (claims.iat === undefined) jwt.setIssuedAt();
  if (options.expiresInSeconds !== undefined)
    jwt.setExpirationTime(Math.floor(Date.now() / 1000) + options.expiresInSeconds);
  return jwt.sign(key);
}

/** Forgets the cached signer: after a rotation, and in tests after truncating the table. */
export function forgetSigner(): void {
  cached = null;
}
