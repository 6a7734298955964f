// Identity tokens as a game server sees them: verified with jose's createRemoteJWKSet pointed at the
// service's key set over HTTP, as DECISIONS tells game developers to do. A token signed just before a key
// rotation still verifies; once its key has left the set, it no longer does; forged tokens (alg none,
// HS256 keyed with the public key, an unknown kid) and expired ones are refused by that client.
import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import {
  ensureSigningKeys,
  purgeRetiredKeys,
  rotateSigningKeys,
  signToken,
} from '../../shared/identity/signing-keys.js';
import { seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('Arcade: identity tokens verified by a game server', () => {
  useCleanDatabase();
  const app = useTestApp();
  const jwksUrl = () => new URL(`${app.client.baseUrl}/api/v1/arcade/jwks`);

  /** What a game server does with a token it is given. */
  const verify = (token: string, audience: string, keys = createRemoteJWKSet(jwksUrl())) =>
    jwtVerify(token, keys, { issuer: config().publicUrl, audience, algorithms: ['ES256'] });

  async function launchToken() {
    await ensureSigningKeys(db(), config().secret);
    const developer = await signedInClient(app.client);
    const made = await createApp(db(), developer.account.id, { name: 'id' });
    const slug = `id-${randomUUID().slice(0, 8)}`;
    await seededGame(developer.account.id, made.id, slug, { listed: true });
    const game = await db()('arcade_apps').where({ app_id: made.id }).first();
    await db()('arcade_releases')
      .where({ id: game.live_release_id })
      .update({ scopes: ['identify'] });
    const player = await signedInClient(app.client);
    await player.site.post('/api/v1/account/arcade/grants', { app_id: made.id, nickname: 'Verified' });
    const res = await player.site.post(`/api/v1/arcade/apps/${slug}/launch`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { token: res.body.data.identity as string, appId: made.id as string, iid: res.body.data.instance_id };
  }

  it('verifies a launch token: issuer, audience, player, nickname, play', async () => {
    const { token, appId, iid } = await launchToken();
    const { payload, protectedHeader } = await verify(token, appId);
    expect(protectedHeader.alg).to.equal('ES256');
    expect(protectedHeader.kid).to.be.a('string');
    expect(payload).to.deep.include({ nickname: 'Verified', scope: 'identify', iid, aud: appId });
    // Another game cannot use it.
    let refused: unknown = null;
    await verify(token, randomUUID()).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/aud/);
  });

  it('keeps verifying a token signed before a rotation, and stops once its key has left the set', async () => {
    const { token, appId } = await launchToken();
    await rotateSigningKeys(db(), config().secret);
    const afterRotation = createRemoteJWKSet(jwksUrl());
    expect((await verify(token, appId, afterRotation)).payload.nickname).to.equal('Verified');
    // 24 hours later the retiring key leaves the set.
    await db()('signing_keys')
      .where({ state: 'retiring' })
      .update({ retired_at: new Date(Date.now() - 25 * 3_600_000) });
    await purgeRetiredKeys(db());
    let refused: unknown = null;
    await verify(token, appId, createRemoteJWKSet(jwksUrl())).catch((error: unknown) => (refused = error));
    expect(refused, 'a retired key must stop verifying').to.not.equal(null);
    // New tokens use the new current key and verify.
    const fresh = await launchToken();
    expect((await verify(fresh.token, fresh.appId)).payload.scope).to.equal('identify');
  });

  it('refuses forged and expired tokens', async () => {
    const { token, appId } = await launchToken();
    const [header, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const refusedBy = async (forged: string) => {
      let error: unknown = null;
      await verify(forged, appId).catch((caught: unknown) => (error = caught));
      return error;
    };
    // alg none, unsigned.
    expect(await refusedBy(`${b64({ alg: 'none' })}.${payload}.`)).to.not.equal(null);
    // HS256 keyed with the public key (the classic confusion attack).
    const jwks = (await (await fetch(jwksUrl())).json()) as { keys: unknown[] };
    const hsHeader = b64({ alg: 'HS256', kid: JSON.parse(Buffer.from(header, 'base64url').toString()).kid });
    const mac = createHmac('sha256', JSON.stringify(jwks.keys[0])).update(`${hsHeader}.${payload}`).digest('base64url');
    expect(await refusedBy(`${hsHeader}.${payload}.${mac}`)).to.not.equal(null);
    // A kid the set does not hold.
    const unknownKid = `${b64({ alg: 'ES256', kid: 'not-a-key' })}.${payload}.${token.split('.')[2]}`;
    expect(await refusedBy(unknownKid)).to.not.equal(null);
    // Expired: signed by the service's own key, but already past `exp`.
    const expired = await signToken(db(), config().secret, { ...claims, exp: Math.floor(Date.now() / 1000) - 60 });
    expect(String(await refusedBy(expired))).to.match(/exp/);
  });
});
