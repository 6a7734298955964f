// The key set route (exact cache header, public members only, 503 identity_unavailable with no key) and the
// play stream a page with an open game listens to: GRANT_UPDATE when the player revokes, CLOSE when the
// development URL of a test play goes away.
import http from 'node:http';
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { ensureSigningKeys, forgetSigner, rotateSigningKeys } from '../../shared/identity/signing-keys.js';
import { arcadeDeveloper, enabledGame, releaseColumns, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import type { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';
import { parseEvents } from '../helpers/event-stream.js';

/** Opens the play stream with the site's cookie and collects its events. */
function openStream(base: string, site: SiteClient, playId: string) {
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  let buffer = '';
  const request = http.get(`${base}/api/v1/arcade/instances/${playId}/stream`, {
    headers: { cookie: site.cookie ?? '', origin: 'http://localhost:3000' },
  });
  const status = new Promise<number>((resolve) => {
    request.on('response', (response) => {
      resolve(response.statusCode ?? 0);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const parsed = parseEvents(buffer + chunk);
        buffer = parsed.rest;
        events.push(...parsed.events.map(({ event, data }) => ({ event, data })));
      });
    });
  });
  return { events, status, close: () => request.destroy() };
}

describe('Arcade: key set route and play streams', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('answers 503 identity_unavailable with no key, then the public set with the exact cache header', async () => {
    await db()('signing_keys').delete();
    forgetSigner();
    const none = await app.client.get('/api/v1/arcade/jwks');
    expect([none.status, none.body.error.code, none.body.error.reason]).to.deep.equal([
      503,
      'unavailable',
      'identity_unavailable',
    ]);
    await ensureSigningKeys(db(), config().secret);
    const res = await app.client.get('/api/v1/arcade/jwks');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=300, stale-while-revalidate=60');
    expect(res.body.keys).to.have.length(2);
    for (const key of res.body.keys) {
      expect(key).to.have.all.keys('kty', 'crv', 'x', 'y', 'kid', 'alg', 'use');
      expect(key).to.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    }
    await rotateSigningKeys(db(), config().secret);
    expect((await app.client.get('/api/v1/arcade/jwks')).body.keys).to.have.length(3);
    const states = await db()('signing_keys').orderBy('created_at').pluck('state');
    expect(states).to.deep.equal(['retiring', 'current', 'next']);
    const stored = await db()('signing_keys').first('private_sealed');
    expect(stored.private_sealed).to.not.include('"d"');
  });

  it('tells an open play of a revoke at once (GRANT_UPDATE)', async () => {
    await ensureSigningKeys(db(), config().secret);
    const developer = await signedInClient(app.client);
    const made = await createApp(db(), developer.account.id, { name: 'stream' });
    await seededGame(developer.account.id, made.id, 'stream-game', { listed: true });
    const player = await signedInClient(app.client);
    await player.site.post('/api/v1/account/arcade/grants', { app_id: made.id, nickname: 'Streamer' });
    const launched = await player.site.post('/api/v1/arcade/apps/stream-game/launch');
    const stream = openStream(app.client.baseUrl, player.site, launched.body.data.instance_id);
    try {
      expect(await stream.status).to.equal(200);
      await until(async () => stream.events.length > 0);
      expect(stream.events[0]).to.deep.include({ event: 'ready' });
      expect(stream.events[0].data).to.include({ granted: true, nickname: 'Streamer' });
      await player.site.delete(`/api/v1/account/arcade/grants/${made.id}`);
      await until(async () => stream.events.some((e) => e.event === 'GRANT_UPDATE'), 3000);
      expect(stream.events.find((e) => e.event === 'GRANT_UPDATE')!.data).to.include({ granted: false });
    } finally {
      stream.close();
    }
    // Someone else's play is not theirs to listen to.
    const stranger = await signedInClient(app.client);
    const foreign = openStream(app.client.baseUrl, stranger.site, launched.body.data.instance_id);
    expect(await foreign.status).to.equal(404);
    foreign.close();
  });

  it('closes a test play when its development URL is cleared', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'stream-test');
    const [release] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 1, status: 'draft', ...releaseColumns() })
      .returning('id');
    const base = `/api/v1/account/apps/${dev.app.id}/arcade/override`;
    await db()('arcade_listings').insert({ app_id: dev.app.id, number: 1, status: 'draft' });
    expect((await dev.site.put(base, { url: 'http://localhost:5173/', release_id: release.id })).status).to.equal(200);
    const launched = await dev.site.post(`${base}/launch`);
    expect(launched.status, JSON.stringify(launched.body)).to.equal(200);
    const stream = openStream(app.client.baseUrl, dev.site, launched.body.data.instance_id);
    try {
      await until(async () => stream.events.length > 0);
      await dev.site.delete(base);
      await until(async () => stream.events.some((e) => e.event === 'CLOSE'), 3000);
    } finally {
      stream.close();
    }
  });
  it('keeps a test play open when the development URL changes on the same origin, and closes it on another', async function () {
    this.timeout(90000);
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'stream-move');
    const [release] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 1, status: 'draft', ...releaseColumns() })
      .returning('id');
    const base = `/api/v1/account/apps/${dev.app.id}/arcade/override`;
    await db()('arcade_listings').insert({ app_id: dev.app.id, number: 1, status: 'draft' });
    const save = (url: string) => dev.site.put(base, { url, release_id: release.id });
    expect((await save('http://localhost:5173/game/')).status).to.equal(200);
    const launched = await dev.site.post(`${base}/launch`);
    expect(launched.status, JSON.stringify(launched.body)).to.equal(200);
    const stream = openStream(app.client.baseUrl, dev.site, launched.body.data.instance_id);
    const seen = (event: string) => stream.events.filter((e) => e.event === event);
    try {
      await until(async () => stream.events.length > 0);
      // Same origin, another path: the play goes on. A grant change afterwards makes the stream look again,
      // and it answers that change without closing.
      expect((await save('http://localhost:5173/other/path/')).status).to.equal(200);
      await dev.site.post('/api/v1/account/arcade/grants', { app_id: dev.app.id, nickname: 'Tester' });
      await until(async () => seen('GRANT_UPDATE').length > 0, 30_000);
      expect(seen('CLOSE')).to.have.length(0);
      // Another origin (another port): the play closes, well within the spec's 30 seconds.
      expect((await save('http://localhost:5174/game/')).status).to.equal(200);
      await until(async () => seen('CLOSE').length > 0, 30_000);
      expect(seen('CLOSE')[0].data).to.deep.equal({
        instance_id: launched.body.data.instance_id,
        reason: 'override_changed',
      });
      expect(seen('CLOSE')).to.have.length(1);
    } finally {
      stream.close();
    }
  });
});
