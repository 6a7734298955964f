// The identity key set as the code that signs sees it: tokens a game server verifies with the published
// set (jose's jwtVerify), through a rotation; private parts unreadable without SECRET; one current and one
// next key however many processes start at once; the signer's short memory of the current key.
import { expect } from 'chai';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { config } from '../../shared/platform/config.js';
import { unseal } from '../../shared/platform/crypto/sealed-box.js';
import { createKnex, db } from '../../shared/platform/db/knex.js';
import {
  ensureSigningKeys,
  forgetSigner,
  NoSigningKeyError,
  publicKeySet,
  rotateSigningKeys,
  SIGNER_CACHE_MS,
  signToken,
} from '../../shared/identity/signing-keys.js';
import { useCleanDatabase } from '../helpers/clean-database.js';

const secret = () => config().secret;

async function emptyKeySet(): Promise<void> {
  await db()('signing_keys').delete();
  forgetSigner();
}

async function states(): Promise<Record<string, string>> {
  const rows: Array<{ kid: string; state: string }> = await db()('signing_keys').select('kid', 'state');
  return Object.fromEntries(rows.map((row) => [row.state === 'retiring' ? row.kid : row.state, row.kid]));
}

/** Runs `work` with the wall clock moved forward, as a process would see it that much later. */
async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  Date.now = () => realNow() + ms;
  try {
    return await work();
  } finally {
    Date.now = realNow;
  }
}

describe('identity signing keys', () => {
  useCleanDatabase();
  beforeEach(emptyKeySet);

  it('signs ES256 tokens with the current kid, typ, iat and exp that verify against the published set', async () => {
    await ensureSigningKeys(db(), secret());
    const { current } = await states();
    const before = Math.floor(Date.now() / 1000);
    const token = await signToken(
      db(),
      secret(),
      { iss: 'http://localhost:3000', aud: 'app-1', sub: 'player-1', nickname: 'Ana' },
      { typ: 'data-event+jwt', expiresInSeconds: 900 },
    );
    expect(decodeProtectedHeader(token)).to.deep.equal({ alg: 'ES256', kid: current, typ: 'data-event+jwt' });
    const { payload } = await jwtVerify(token, createLocalJWKSet(await publicKeySet(db())), {
      issuer: 'http://localhost:3000',
      audience: 'app-1',
      algorithms: ['ES256'],
      typ: 'data-event+jwt',
    });
    expect(payload).to.include({ sub: 'player-1', nickname: 'Ana' });
    expect(payload.iat).to.be.within(before, before + 2);
    expect(payload.exp).to.equal(payload.iat! + 900);
  });

  it('leaves typ and exp out when not asked for them', async () => {
    await ensureSigningKeys(db(), secret());
    const token = await signToken(db(), secret(), { sub: 'x' });
    expect(decodeProtectedHeader(token)).to.have.all.keys('alg', 'kid');
    const { payload } = await jwtVerify(token, createLocalJWKSet(await publicKeySet(db())));
    expect(payload).to.have.all.keys('sub', 'iat');
  });

  it('refuses to sign with a typed error when there is no current key', async () => {
    const refused = await signToken(db(), secret(), { sub: 'x' }).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(NoSigningKeyError);
  });

  it('keeps verifying a token signed before a rotation, and signs with the promoted key after it', async () => {
    await ensureSigningKeys(db(), secret());
    const first = await states();
    const old = await signToken(db(), secret(), { sub: 'before' }, { expiresInSeconds: 900 });

    const promoted = await rotateSigningKeys(db(), secret());
    expect(promoted).to.equal(first.next);
    const after = await states();
    expect(after.current).to.equal(first.next);
    expect(after[first.current]).to.equal(first.current);
    expect(after.next).to.be.a('string').and.not.oneOf([first.current, first.next]);

    const keys = createLocalJWKSet(await publicKeySet(db()));
    expect((await jwtVerify(old, keys)).protectedHeader.kid).to.equal(first.current);
    // The rotating process forgets its cached signer at once; others within SIGNER_CACHE_MS.
    const fresh = await signToken(db(), secret(), { sub: 'after' });
    expect((await jwtVerify(fresh, keys)).protectedHeader.kid).to.equal(promoted);
  });

  it('refuses a token whose key has left the set', async () => {
    await ensureSigningKeys(db(), secret());
    const old = await signToken(db(), secret(), { sub: 'x' });
    await rotateSigningKeys(db(), secret());
    await db()('signing_keys')
      .where({ state: 'retiring' })
      .update({ retired_at: new Date(Date.now() - 25 * 3600 * 1000) });
    const refused = await jwtVerify(old, createLocalJWKSet(await publicKeySet(db()))).catch((error: unknown) => error);
    expect(refused).to.have.property('code', 'ERR_JWKS_NO_MATCHING_KEY');
  });

  it('stores the private key sealed with SECRET, never as a readable JWK', async () => {
    await ensureSigningKeys(db(), secret());
    const rows: Array<{ kid: string; public_jwk: Record<string, string>; private_sealed: string }> = await db()(
      'signing_keys',
    ).select('kid', 'public_jwk', 'private_sealed');
    expect(rows).to.have.length(2);
    for (const row of rows) {
      expect(row.public_jwk).to.have.all.keys('kty', 'crv', 'x', 'y');
      expect(row.private_sealed).to.match(/^v1\./);
      expect(row.private_sealed).to.not.include('"d"');
      expect(() => JSON.parse(row.private_sealed)).to.throw();
      expect(() => unseal('another-secret-0123456789abcdef0123456789', 'signing-key', row.private_sealed)).to.throw();
      // With SECRET it is the private half of the published key.
      const jwk = JSON.parse(unseal(secret(), 'signing-key', row.private_sealed));
      expect(jwk).to.include(row.public_jwk);
      expect(jwk.d).to.be.a('string');
    }
    const published = JSON.stringify(await publicKeySet(db()));
    for (const row of rows) expect(published).to.not.include(row.private_sealed);
    expect(published).to.not.match(/"d"/);
  });

  it('makes exactly one current and one next key when many processes start at once', async () => {
    // Separate pools stand for separate processes: the advisory lock is per database session.
    const pools = Array.from({ length: 4 }, () => createKnex(process.env.DATABASE_URL!, 2));
    try {
      await Promise.all(
        pools.flatMap((pool) => [ensureSigningKeys(pool, secret()), ensureSigningKeys(pool, secret())]),
      );
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
    const rows: Array<{ state: string }> = await db()('signing_keys').select('state').orderBy('state');
    expect(rows.map((row) => row.state)).to.deep.equal(['current', 'next']);
    // And again is a no-op.
    await ensureSigningKeys(db(), secret());
    expect(await db()('signing_keys').count({ n: '*' }).first()).to.deep.equal({ n: 2 });
  });

  it('promotes a lone next key rather than making a second one', async () => {
    await ensureSigningKeys(db(), secret());
    const { next } = await states();
    await db()('signing_keys').where({ state: 'current' }).delete();
    await ensureSigningKeys(db(), secret());
    const after = await states();
    expect(after.current).to.equal(next);
    expect(after.next).to.be.a('string').and.not.equal(next);
  });

  it('remembers the current key for SIGNER_CACHE_MS, then picks up a rotation made elsewhere', async () => {
    await ensureSigningKeys(db(), secret());
    const first = await states();
    expect(decodeProtectedHeader(await signToken(db(), secret(), {})).kid).to.equal(first.current);
    // Another process rotates: this one's memory does not know yet.
    await db().transaction(async (trx) => {
      await trx('signing_keys').where({ state: 'current' }).update({ state: 'retiring', retired_at: trx.fn.now() });
      await trx('signing_keys').where({ state: 'next' }).update({ state: 'current', promoted_at: trx.fn.now() });
    });
    expect(decodeProtectedHeader(await signToken(db(), secret(), {})).kid).to.equal(first.current);
    const afterWindow = await later(SIGNER_CACHE_MS + 1000, () => signToken(db(), secret(), {}));
    expect(decodeProtectedHeader(afterWindow).kid).to.equal(first.next);
  });

  it('reads the current key once for a burst of tokens signed at once', async () => {
    await ensureSigningKeys(db(), secret());
    forgetSigner();
    let reads = 0;
    const count = (query: { sql: string }) => {
      if (query.sql.includes('signing_keys')) reads += 1;
    };
    db().on('query', count);
    try {
      const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => signToken(db(), secret(), { n: i })));
      expect(new Set(tokens).size).to.equal(50);
    } finally {
      db().off('query', count);
    }
    expect(reads).to.equal(1);
  });
});
