// Players' grants and launches: the nickname rules, the player id through revoke and forget, the events each
// change records, launching live and test plays with their refusals, and the play a report can cite.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { config } from '../../shared/platform/config.js';
import { arcadeDeveloper, enabledGame, releaseColumns, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason];
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

describe('Arcade: grants and launches', () => {
  useCleanDatabase();
  const app = useTestApp();

  before(() => ensureSigningKeys(db(), config().secret));

  /** A listed game whose live release asks for `identify` (with an events URL), by a fresh developer. */
  async function identifyGame(slug: string) {
    const developer = await signedInClient(app.client);
    const made = await createApp(db(), developer.account.id, { name: slug });
    await seededGame(developer.account.id, made.id, slug, { listed: true });
    const game = await db()('arcade_apps').where({ app_id: made.id }).first();
    await db()('arcade_releases')
      .where({ id: game.live_release_id })
      .update({ scopes: ['identify'], data_events_url: `https://${slug}.example.com/events` });
    return made.id as string;
  }

  const events = (appId: string) => db()('arcade_data_events').where({ app_id: appId }).orderBy('created_at');

  it('refuses nicknames outside the rules', async () => {
    const appId = await identifyGame('nick-rules');
    const player = await signedInClient(app.client);
    for (const nickname of [
      'a',
      'x'.repeat(33),
      ' lead',
      'trail ',
      'zero\u200bwidth',
      'bidi\u202eflip',
      'tab\there',
      // Invisible or format characters a hand list missed: soft hyphen, combining grapheme joiner, Mongolian
      // vowel separator, Hangul filler, a tag character, a line separator.
      'soft\u00adhyphen',
      'grapheme\u034fjoiner',
      'mongolian\u180eseparator',
      'hangul\u3164filler',
      'tag\u{e0041}char',
      'line\u2028break',
      42,
    ]) {
      const res = await player.site.post('/api/v1/account/arcade/grants', { app_id: appId, nickname });
      expect(refusal(res), JSON.stringify(nickname)).to.deep.equal([400, 'nickname_invalid']);
    }
    const ok = await player.site.post('/api/v1/account/arcade/grants', { app_id: appId, nickname: 'Zoë 🎮' });
    expect(ok.status).to.equal(201);
    expect(ok.body.data.grant).to.deep.include({
      app_id: appId,
      slug: 'nick-rules',
      nickname: 'Zoë 🎮',
      revoked_at: null,
    });
    expect(ok.body.data.grant.scopes).to.deep.equal(['identify']);
  });

  it('keeps the player id through a revoke, replaces it after forget, and records each event', async () => {
    const appId = await identifyGame('grant-life');
    const player = await signedInClient(app.client);
    const grants = '/api/v1/account/arcade/grants';
    await player.site.post(grants, { app_id: appId, nickname: 'First' });
    const playerId = async () =>
      (await db()('arcade_players').where({ account_id: player.account.id, app_id: appId }).first())?.player_id;
    const first = await playerId();
    expect((await player.site.patch(`${grants}/${appId}`, { nickname: 'Second' })).body.data.grant.nickname).to.equal(
      'Second',
    );
    expect((await player.site.delete(`${grants}/${appId}`)).body).to.deep.equal({ data: null });
    const listed = (await player.site.get(grants)).body.data;
    expect(listed[0].revoked_at).to.be.a('string');
    await player.site.post(grants, { app_id: appId, nickname: 'Back' });
    expect(await playerId()).to.equal(first);
    expect((await player.site.delete(`${grants}/${appId}?forget=true`)).status).to.equal(200);
    expect((await player.site.get(grants)).body.data).to.deep.equal([]);
    await player.site.post(grants, { app_id: appId, nickname: 'New me' });
    const second = await playerId();
    expect(second).to.not.equal(first);
    const recorded = (await events(appId)).map((e) => [e.type, e.player_id]);
    expect(recorded).to.deep.equal([
      ['nickname_changed', first],
      ['grant_revoked', first],
      ['grant_forgotten', first],
    ]);
    expect((await events(appId))[0].data).to.deep.equal({ nickname: 'Second' });
    expect(
      refusal(await player.site.patch(`${grants}/00000000-0000-4000-8000-000000000000`, { nickname: 'Nope' })),
    ).to.deep.equal([404, 'app_not_found']);
  });

  it('allows 10 nickname changes a day, and is for a session only', async () => {
    const appId = await identifyGame('nick-limit');
    const player = await signedInClient(app.client);
    await player.site.post('/api/v1/account/arcade/grants', { app_id: appId, nickname: 'n0' });
    for (let i = 1; i <= 10; i += 1) {
      expect(
        (await player.site.patch(`/api/v1/account/arcade/grants/${appId}`, { nickname: `n${i}` })).status,
      ).to.equal(200);
    }
    const limited = await player.site.patch(`/api/v1/account/arcade/grants/${appId}`, { nickname: 'n11' });
    expect(limited.status).to.equal(429);
    const { token } = await appWithKey(player.account.id, ['profile.read']);
    const keyed = await app.client.get('/api/v1/account/arcade/grants', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(keyed.status).to.equal(403);
  });

  it('launches a live play with an identity token once the player agreed, and records the play', async () => {
    const appId = await identifyGame('launch-live');
    const player = await signedInClient(app.client);
    const launch = () => player.site.post('/api/v1/arcade/apps/launch-live/launch');
    expect(refusal(await launch())).to.deep.equal([403, 'grant_required']);
    expect(await db()('arcade_instances').where({ app_id: appId })).to.have.length(0);
    await player.site.post('/api/v1/account/arcade/grants', { app_id: appId, nickname: 'Pilot' });
    const res = await launch();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { instance_id: iid, kind, mode, url, release_number: number, identity } = res.body.data;
    expect([kind, mode, url, number]).to.deep.equal(['live', 'live', 'https://launch-live.example.com/play/', 1]);
    const claims = claimsOf(identity);
    const { player_id: playerId } = await db()('arcade_players').where({ account_id: player.account.id }).first();
    expect(claims).to.deep.include({ aud: appId, sub: playerId, nickname: 'Pilot', scope: 'identify', iid });
    expect(claims.iss).to.equal(config().publicUrl);
    expect(claims.exp - claims.iat).to.equal(900);
    const play = await db()('arcade_instances').where({ id: iid }).first();
    expect([play.kind, play.mode, play.origin, play.release_number]).to.deep.equal([
      'live',
      'live',
      'https://launch-live.example.com',
      1,
    ]);
    // A report from that play cites it.
    const reported = await player.site.post('/api/v1/reports', {
      on: 'ARCADE_APP',
      id: appId,
      reason: 'OTHER',
      details: 'The game froze my browser.',
      instance_id: iid,
    });
    expect(reported.status).to.equal(201);
    const stored = await db()('reports').where({ reporter_id: player.account.id }).first();
    expect(stored.snapshot.instance).to.deep.include({ id: iid, mode: 'live', release_number: 1 });
  });

  it('refuses games that cannot be opened, and launches the owner’s development URL in test mode', async () => {
    const player = await signedInClient(app.client);
    const flagged = await signedInClient(app.client);
    const flaggedApp = await createApp(db(), flagged.account.id, { name: 'f' });
    await seededGame(flagged.account.id, flaggedApp.id, 'flagged-game', { listed: true, notice: 'flagged' });
    expect(refusal(await player.site.post('/api/v1/arcade/apps/flagged-game/launch'))).to.deep.equal([
      403,
      'not_playable',
    ]);
    expect(refusal(await player.site.post('/api/v1/arcade/apps/no-such-game/launch'))).to.deep.equal([
      404,
      'app_not_found',
    ]);

    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'test-launch');
    const launch = () => dev.site.post(`/api/v1/account/apps/${dev.app.id}/arcade/override/launch`);
    expect(refusal(await launch())).to.deep.equal([404, 'override_not_found']);
    const [release] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 1, status: 'draft', ...releaseColumns() })
      .returning('id');
    await db()('arcade_overrides').insert({
      app_id: dev.app.id,
      url: 'http://localhost:5173/',
      origin: 'http://localhost:5173',
      host: 'localhost:5173',
      loopback: true,
      release_id: release.id,
      set_at: new Date(),
      expires_at: new Date(Date.now() + 3_600_000),
    });
    // No store page yet: what GET .../override reports as blocked_reason is the launch's refusal.
    expect(refusal(await launch())).to.deep.equal([404, 'listing_not_found']);
    await db()('arcade_listings').insert({ app_id: dev.app.id, number: 1, status: 'draft' });
    const res = await launch();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // Spec: "a launch of kind `override`, for the owner only, in mode `test`"; the play keeps both.
    expect(res.body.data).to.deep.include({
      kind: 'override',
      mode: 'test',
      url: 'http://localhost:5173/',
      release_number: 1,
      identity: null,
    });
    const play = await db()('arcade_instances').where({ id: res.body.data.instance_id }).first();
    expect([play.kind, play.mode]).to.deep.equal(['override', 'test']);
    await db()('arcade_overrides')
      .where({ app_id: dev.app.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(refusal(await launch())).to.deep.equal([409, 'override_expired']);
  });
});
