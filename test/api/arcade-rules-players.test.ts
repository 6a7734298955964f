// Players' side rules the other files leave untested (spec arcade.md: States, grant revoked "game gets no
// more tokens"; Events, "`failed` counts failures"): after a revoke neither launch gives an identity token
// (403 grant_required), and events a game server refused for good show in `data_events.failed`.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { arcadeDeveloper, gameWithPlayer, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

type Res = { status: number; body: { data?: unknown; error?: { code?: string; reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.code, res.body.error?.reason];
const GRANT_REQUIRED = [403, 'forbidden', 'grant_required'];
const subOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).sub;

describe('Arcade rules: players', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['data-event.deliver']);
  const app = useTestApp();
  let server: FakeHost;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    server = await startFakeHost();
  });
  after(() => server.close());

  const grants = '/api/v1/account/arcade/grants';
  const plays = (appId: string) => db()('arcade_instances').where({ app_id: appId });

  it('gives no identity token after a revoke: the live launch is refused with grant_required', async () => {
    const owner = await signedInClient(app.client);
    const made = await createApp(db(), owner.account.id, { name: 'revoked-live' });
    await seededGame(owner.account.id, made.id, 'revoked-live', { listed: true });
    await db()('arcade_releases')
      .where({ app_id: made.id })
      .update({ scopes: ['identify'], data_events_url: 'https://revoked-live.example.com/events' });
    const player = await signedInClient(app.client);
    const launch = () => player.site.post('/api/v1/arcade/apps/revoked-live/launch');
    expect((await player.site.post(grants, { app_id: made.id, nickname: 'Pilot' })).status).to.equal(201);
    const before = await launch();
    expect(before.status, JSON.stringify(before.body)).to.equal(200);
    const first = before.body.data.identity as string;
    expect(first).to.be.a('string');

    expect((await player.site.delete(`${grants}/${made.id}`)).status).to.equal(200);
    const refused = await launch();
    expect(refusal(refused)).to.deep.equal(GRANT_REQUIRED);
    expect(refused.body).to.not.have.property('data');
    // The refused launch left no play behind: only the one before the revoke is recorded.
    expect(await plays(made.id)).to.have.length(1);
    // Agreeing again gives tokens again, for the same player id: the revoke alone stopped them.
    expect((await player.site.post(grants, { app_id: made.id, nickname: 'Pilot' })).status).to.be.oneOf([200, 201]);
    const again = await launch();
    expect(again.status).to.equal(200);
    expect(subOf(again.body.data.identity)).to.equal(subOf(first));
  });

  it('gives the owner no identity token on the development URL after revoking their own grant', async () => {
    const dev = await arcadeDeveloper(app.client);
    await seededGame(dev.account.id, dev.app.id, 'revoked-test', { listed: true });
    const game = await db()('arcade_apps').where({ app_id: dev.app.id }).first();
    await db()('arcade_releases')
      .where({ id: game.live_release_id })
      .update({ scopes: ['identify'], data_events_url: 'https://revoked-test.example.com/events' });
    await db()('arcade_overrides').insert({
      app_id: dev.app.id,
      url: 'http://localhost:5173/',
      origin: 'http://localhost:5173',
      host: 'localhost:5173',
      loopback: true,
      release_id: game.live_release_id,
      set_at: new Date(),
      expires_at: new Date(Date.now() + 3_600_000),
    });
    const launch = () => dev.site.post(`/api/v1/account/apps/${dev.app.id}/arcade/override/launch`);
    expect((await dev.site.post(grants, { app_id: dev.app.id, nickname: 'Owner' })).status).to.equal(201);
    const before = await launch();
    expect(before.status, JSON.stringify(before.body)).to.equal(200);
    expect(before.body.data).to.deep.include({ mode: 'test' });
    expect(before.body.data.identity).to.be.a('string');
    expect((await dev.site.delete(`${grants}/${dev.app.id}`)).status).to.equal(200);
    expect(refusal(await launch())).to.deep.equal(GRANT_REQUIRED);
    expect(await plays(dev.app.id)).to.have.length(1);
  });

  it('counts events the game server refused for good in data_events.failed, in the record and the app summary', async () => {
    // 410: "fail it at once" (DECISIONS), so no retry schedule has to run out.
    server.routes['/gone'] = { status: 410 };
    const { dev, player, appId } = await gameWithPlayer(app.client, server.origin, 'failed-count', server.url('/gone'));
    const record = async () => (await dev.site.get(`/api/v1/account/apps/${appId}/arcade`)).body.data.app;
    const summary = async () => (await dev.site.get('/api/v1/account/apps')).body.data[0].arcade.data_events;
    const failedEvents = async () =>
      (await db()('arcade_data_events').where({ app_id: appId, status: 'failed' })).length;
    expect((await record()).data_events).to.deep.include({ pending: 0, held: 0, failed: 0 });

    expect((await player.site.patch(`${grants}/${appId}`, { nickname: 'Renamed' })).status).to.equal(200);
    await until(async () => (await failedEvents()) === 1);
    expect((await record()).data_events).to.deep.equal({ pending: 0, held: 0, failed: 1, oldest_pending_at: null });
    expect(await summary()).to.deep.equal({ pending: 0, held: 0, failed: 1 });

    // A second one: `failed` counts them, it does not just flag the game.
    expect((await player.site.delete(`${grants}/${appId}`)).status).to.equal(200);
    await until(async () => (await failedEvents()) === 2);
    expect((await record()).data_events).to.deep.include({ pending: 0, failed: 2 });
    expect(await summary()).to.deep.equal({ pending: 0, held: 0, failed: 2 });
    // The server really was asked, once per event (one attempt each: a 410 is not retried).
    expect(server.requests.filter((r) => r.path === '/gone')).to.have.length(2);
  });
});
