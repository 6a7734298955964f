// GET /arcade/jwks (spec: Key set, Authentication rule 6, Errors 503 identity_unavailable, Limits "Key set
// cache"): the plain JWK Set a game server verifies identity tokens and data events with.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import {
  ensureSigningKeys,
  forgetSigner,
  purgeRetiredKeys,
  rotateSigningKeys,
} from '../../shared/identity/signing-keys.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, buildAccount } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=60';

async function emptyKeySet(): Promise<void> {
  await db().raw('TRUNCATE signing_keys');
  forgetSigner();
}

async function kidsByState(): Promise<Record<string, string[]>> {
  const rows: Array<{ kid: string; state: string }> = await db()('signing_keys').select('kid', 'state');
  const out: Record<string, string[]> = {};
  for (const row of rows) (out[row.state] ??= []).push(row.kid);
  return out;
}

describe('GET /arcade/jwks', () => {
  useCleanDatabase();
  const app = useTestApp();
  beforeEach(emptyKeySet);

  it('answers 503 unavailable with reason identity_unavailable, never an empty set, when no key exists', async () => {
    const res = await app.client.get('/api/v1/arcade/jwks');
    expect(res.status).to.equal(503);
    expect(res.body.error).to.include({ code: 'unavailable', reason: 'identity_unavailable' });
    expect(res.body).to.not.have.property('keys');
    // A cache in front must not keep "no keys" for five minutes.
    expect(res.headers.get('cache-control') ?? '').to.not.include('public');
  });

  it('answers 503 too when only retiring keys past 24 hours remain', async () => {
    await ensureSigningKeys(db(), config().secret);
    await db()('signing_keys').update({ state: 'retiring', retired_at: new Date(Date.now() - 25 * 3600 * 1000) });
    const res = await app.client.get('/api/v1/arcade/jwks');
    expect([res.status, res.body.error?.reason]).to.deep.equal([503, 'identity_unavailable']);
  });

  it('answers the current and next keys, public members only, as a plain JWK Set with the exact cache header', async () => {
    await ensureSigningKeys(db(), config().secret);
    const res = await app.client.get('/api/v1/arcade/jwks');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal(CACHE_CONTROL);
    expect(res.headers.get('content-type')).to.match(/^application\/jwk-set\+json/);
    expect(res.body).to.have.all.keys('keys');
    expect(res.body.keys).to.have.length(2);
    for (const key of res.body.keys) {
      expect(key).to.have.all.keys('kty', 'crv', 'x', 'y', 'kid', 'alg', 'use');
      expect(key).to.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(key.x).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(key.y).to.match(/^[A-Za-z0-9_-]{43}$/);
    }
    const states = await kidsByState();
    expect(res.body.keys.map((key: { kid: string }) => key.kid)).to.have.members([...states.current, ...states.next]);
    expect(res.text).to.not.match(/"d"|private|v1\./);
  });

  it('holds next, current and retiring keys after a rotation', async () => {
    await ensureSigningKeys(db(), config().secret);
    const before = await kidsByState();
    await rotateSigningKeys(db(), config().secret);
    const after = await kidsByState();
    expect(after.retiring).to.deep.equal(before.current);
    expect(after.current).to.deep.equal(before.next);
    expect(after.next).to.have.length(1);

    const res = await app.client.get('/api/v1/arcade/jwks');
    expect(res.status).to.equal(200);
    expect(res.body.keys.map((key: { kid: string }) => key.kid)).to.have.members([
      ...after.next,
      ...after.current,
      ...after.retiring,
    ]);
  });

  it('leaves out a retiring key older than 24 hours, and purgeRetiredKeys deletes only that one', async () => {
    await ensureSigningKeys(db(), config().secret);
    await rotateSigningKeys(db(), config().secret);
    const old = (await kidsByState()).retiring[0];
    await rotateSigningKeys(db(), config().secret);
    const recent = (await kidsByState()).retiring.find((kid) => kid !== old)!;
    await db()('signing_keys')
      .where({ kid: old })
      .update({ retired_at: new Date(Date.now() - 24 * 3600 * 1000 - 60_000) });
    await db()('signing_keys')
      .where({ kid: recent })
      .update({ retired_at: new Date(Date.now() - 23 * 3600 * 1000) });

    const listed = (await app.client.get('/api/v1/arcade/jwks')).body.keys.map((key: { kid: string }) => key.kid);
    expect(listed).to.have.length(3);
    expect(listed).to.include(recent).and.not.include(old);

    expect(await purgeRetiredKeys(db())).to.equal(1);
    const left = await kidsByState();
    expect(left.retiring).to.deep.equal([recent]);
    expect(left.current).to.have.length(1);
    expect(left.next).to.have.length(1);
    expect(await purgeRetiredKeys(db())).to.equal(0);
  });

  it('needs no key, but checks one that is sent like every public route', async () => {
    await ensureSigningKeys(db(), config().secret);
    const { account } = await buildAccount();
    const { token } = await appWithKey(account.id);
    const withKey = await app.client.get('/api/v1/arcade/jwks', { headers: { authorization: `Bearer ${token}` } });
    expect(withKey.status).to.equal(200);
    expect(withKey.body.keys).to.have.length(2);
    const badKey = await app.client.get('/api/v1/arcade/jwks', { headers: { authorization: 'Bearer not-a-key' } });
    expect([badKey.status, badKey.body.error.code]).to.deep.equal([401, 'invalid_key']);
  });

  it('keeps the database to one current and one next key', async () => {
    await ensureSigningKeys(db(), config().secret);
    const { next } = await kidsByState();
    const refused = await db()('signing_keys')
      .where({ kid: next[0] })
      .update({ state: 'current' })
      .catch((error: { code?: string }) => error);
    expect(refused).to.have.property('code', '23505');
    const bad = await db()('signing_keys')
      .where({ kid: next[0] })
      .update({ state: 'gone' })
      .catch((error: { code?: string }) => error);
    expect(bad).to.have.property('code', '23514');
  });
});
