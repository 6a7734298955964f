// Data events end to end: a game server written here (an https fake host) verifies each delivery with jose's
// createRemoteJWKSet pointed at the service's key set, as a real game server would. Delivery, retry after a
// 500 and a time-out, a 410 that stops it, events held while no live release has an events URL and
// released when one goes live, and the counts in the app answers.
import { expect } from 'chai';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { releaseHeldEvents } from '../../shared/arcade/data-events.js';
import { CLAIM, deliverDataEvents, LEASE_SECONDS, sweepDataEvents } from '../../shared/arcade/delivery.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { gameWithPlayer as gameWithPlayerOn } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('Arcade: data events to a game server', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['data-event.deliver']);
  const app = useTestApp();
  let server: FakeHost;
  let keySet: ReturnType<typeof createRemoteJWKSet>;
  const received: Array<{ type: string; sub: string; jti: string; webhookId: string; typ: string | undefined }> = [];

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    keySet = createRemoteJWKSet(new URL(`${app.client.baseUrl}/api/v1/arcade/jwks`));
    server = await startFakeHost();
  });
  after(() => server.close());

  /** The game server's events route: verifies the JWT body, then answers `status`. */
  function serveEvents(status = 204) {
    server.routes['/events'] = (request, response, body) => {
      void (async () => {
        const token = body.toString('utf8');
        const { payload } = await jwtVerify(token, keySet, { issuer: config().publicUrl });
        received.push({
          type: payload.type as string,
          sub: payload.sub!,
          jti: payload.jti!,
          webhookId: String(request.headers['webhook-id']),
          typ: decodeProtectedHeader(token).typ,
        });
        response.writeHead(status).end();
      })().catch(() => response.writeHead(401).end());
    };
  }

  const gameWithPlayer = (slug: string, eventsUrl: string | null) =>
    gameWithPlayerOn(app.client, server.origin, slug, eventsUrl);

  const eventOf = (appId: string, type: string) => db()('arcade_data_events').where({ app_id: appId, type }).first();

  it('delivers a signed event the game server verifies with the published key set', async () => {
    serveEvents(204);
    const { player, appId } = await gameWithPlayer('events-ok', server.url('/events'));
    await player.site.patch(`/api/v1/account/arcade/grants/${appId}`, { nickname: 'Renamed' });
    await until(async () => (await eventOf(appId, 'nickname_changed'))?.status === 'delivered');
    const event = await eventOf(appId, 'nickname_changed');
    const got = received.find((r) => r.jti === event.id)!;
    expect(got).to.deep.include({ type: 'nickname_changed', webhookId: event.id, typ: 'data-event+jwt' });
    expect(got.sub).to.equal(event.player_id);
  });

  it('retries after a 500 on the schedule, and stops at once on a 410', async () => {
    serveEvents(500);
    const { player, appId } = await gameWithPlayer('events-retry', server.url('/events'));
    await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
    await until(async () => (await eventOf(appId, 'grant_revoked'))?.attempts === 1);
    const waiting = await eventOf(appId, 'grant_revoked');
    expect([waiting.status, waiting.last_error]).to.deep.equal(['pending', 'status 500']);
    const wait = new Date(waiting.next_attempt_at).getTime() - Date.now();
    expect(wait).to.be.within(0, 5000);
    // The server recovers: the scheduled attempt (5 s later) delivers.
    serveEvents(204);
    await until(async () => (await eventOf(appId, 'grant_revoked'))?.status === 'delivered', 15000);
    expect((await eventOf(appId, 'grant_revoked')).attempts).to.equal(2);

    serveEvents(410);
    const gone = await gameWithPlayer('events-gone', server.url('/events'));
    await gone.player.site.delete(`/api/v1/account/arcade/grants/${gone.appId}?forget=true`);
    await until(async () => (await eventOf(gone.appId, 'grant_forgotten'))?.status === 'failed');
    expect((await eventOf(gone.appId, 'grant_forgotten')).last_error).to.equal('status 410');
  });

  it('counts a time-out as a failed attempt to retry', async () => {
    server.routes['/slow'] = () => undefined; // never answers
    const { player, appId } = await gameWithPlayer('events-slow', null);
    await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
    await db()('arcade_releases')
      .where({ app_id: appId })
      .update({ data_events_url: server.url('/slow') });
    const event = await eventOf(appId, 'grant_revoked');
    const outcomes = await deliverDataEvents(db(), [event.id], {
      secret: config().secret,
      issuer: config().publicUrl,
      timeoutMs: 300,
    });
    expect(outcomes.get(event.id)).to.equal('retrying');
    expect((await eventOf(appId, 'grant_revoked')).last_error).to.equal('timeout');
  });

  it('attempts the jobs a worker took together at once, each event to its own outcome and log row', async () => {
    server.routes['/ok'] = { status: 204 };
    server.routes['/gone'] = { status: 410 };
    server.routes['/broken'] = { status: 500 };
    const events: Record<string, string> = {};
    for (const path of ['/ok', '/gone', '/broken', '/none']) {
      const { player, appId } = await gameWithPlayer(`events-together${path.replace('/', '-')}`, null);
      await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
      // Held until now (no job ran): its URL set under it, as a release going live would.
      const url = path === '/none' ? null : server.url(path);
      await db()('arcade_releases').where({ app_id: appId }).update({ data_events_url: url });
      events[path] = (await eventOf(appId, 'grant_revoked')).id;
    }
    const leased = await db()('arcade_data_events').where({ id: events['/ok'] }).first('id');
    const outcomes = await deliverDataEvents(db(), [...Object.values(events), leased.id], {
      secret: config().secret,
      issuer: config().publicUrl,
    });
    expect(Object.fromEntries(Object.entries(events).map(([path, id]) => [path, outcomes.get(id)]))).to.deep.equal({
      '/ok': 'delivered',
      '/gone': 'failed',
      '/broken': 'retrying',
      '/none': 'held',
    });
    const rows = await db()('arcade_data_events')
      .whereIn('id', Object.values(events))
      .select('id', 'status', 'attempts', 'last_error');
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(events['/ok'])).to.include({ status: 'delivered', attempts: 1, last_error: null });
    expect(byId.get(events['/gone'])).to.include({ status: 'failed', attempts: 1, last_error: 'status 410' });
    expect(byId.get(events['/broken'])).to.include({ status: 'pending', attempts: 1, last_error: 'status 500' });
    expect(byId.get(events['/none'])).to.include({ status: 'pending', attempts: 0 });
    const logged = await db()('arcade_data_event_attempts')
      .whereIn('event_id', Object.values(events))
      .select('event_id', 'outcome', 'http_status');
    expect(logged.map((row) => [row.event_id, row.outcome, row.http_status]).sort()).to.deep.equal(
      [
        [events['/ok'], 'delivered', 204],
        [events['/gone'], 'failed', 410],
        [events['/broken'], 'retrying', 500],
      ].sort(),
    );
  });

  it('writes the attempts of each receiver as soon as they are in: a slow receiver holds back only its own', async () => {
    server.routes['/fast'] = { status: 204 };
    server.routes['/late'] = (_request, response) => void setTimeout(() => response.writeHead(204).end(), 1500);
    const events: Record<string, string> = {};
    for (const path of ['/fast', '/late']) {
      const { player, appId } = await gameWithPlayer(`events-apart${path.replace('/', '-')}`, null);
      await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
      await db()('arcade_releases')
        .where({ app_id: appId })
        .update({ data_events_url: server.url(path) });
      events[path] = (await eventOf(appId, 'grant_revoked')).id;
    }
    const heard: Array<{ id: string; outcome: string; late: string }> = [];
    const reads: Array<Promise<void>> = [];
    const outcomes = await deliverDataEvents(
      db(),
      [events['/late'], events['/fast']],
      { secret: config().secret, issuer: config().publicUrl },
      (settled) => {
        for (const [id, outcome] of settled) {
          // What the slow receiver's event is when this one is heard.
          reads.push(
            db()('arcade_data_events')
              .where({ id: events['/late'] })
              .first('status')
              .then((row) => void heard.push({ id, outcome, late: row.status })),
          );
        }
      },
    );
    await Promise.all(reads);
    expect(outcomes.get(events['/fast'])).to.equal('delivered');
    expect(outcomes.get(events['/late'])).to.equal('delivered');
    expect(heard.map(({ id }) => id)).to.deep.equal([events['/fast'], events['/late']]);
    // The fast receiver's event was written and heard while the slow one was still waiting for its answer.
    expect(heard[0]).to.deep.equal({ id: events['/fast'], outcome: 'delivered', late: 'pending' });
  });

  it('claims a batch by its ids, however large the backlog and before PostgreSQL has counted it', async () => {
    const { appId } = await gameWithPlayer('events-backlog', server.url('/events'));
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      app_id: appId,
      player_id: crypto.randomUUID(),
      type: 'nickname_changed',
      data: JSON.stringify({ nickname: `player ${i}` }),
    }));
    for (let i = 0; i < rows.length; i += 1000) await db()('arcade_data_events').insert(rows.slice(i, i + 1000));
    const ids = (await db()('arcade_data_events').where({ app_id: appId }).limit(750).select('id')).map(
      (row) => row.id,
    );
    let buffers = 0;
    let claimed = 0;
    await db()
      .transaction(async (trx) => {
        const { rows: plan } = await trx.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${CLAIM}`, [LEASE_SECONDS, ids]);
        const top = plan[0]['QUERY PLAN'][0].Plan;
        buffers = top['Shared Hit Blocks'] + top['Shared Read Blocks'];
        claimed = top['Actual Rows'];
        throw new Error('rolled back');
      })
      .catch((error: Error) => expect(error.message).to.equal('rolled back'));
    expect(claimed).to.equal(750);
    // The plan that looped over every pending event read about 130,000; this one about 15,000.
    expect(buffers).to.be.below(30_000);
  });

  it('sweeps an overdue event back into the queue only while its game has an events URL', async () => {
    const { player, appId } = await gameWithPlayer('events-swept', null);
    await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
    const overdue = { next_attempt_at: new Date(Date.now() - 120_000) };
    await db()('arcade_data_events').where({ app_id: appId }).update(overdue);
    // Held: no job would deliver it, so none is sent.
    expect(await sweepDataEvents(db())).to.equal(0);
    server.routes['/swept'] = { status: 204 };
    await db()('arcade_releases')
      .where({ app_id: appId })
      .update({ data_events_url: server.url('/swept') });
    expect(await sweepDataEvents(db())).to.equal(1);
    await until(async () => (await eventOf(appId, 'grant_revoked'))?.status === 'delivered');
  });

  it('holds events while no live release has an events URL, counts them, and sends them once one goes live', async () => {
    serveEvents(204);
    const { dev, player, appId } = await gameWithPlayer('events-held', null);
    await player.site.patch(`/api/v1/account/arcade/grants/${appId}`, { nickname: 'Held One' });
    await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
    const record = async () => (await dev.site.get(`/api/v1/account/apps/${appId}/arcade`)).body.data.app;
    const counts = (await record()).data_events;
    expect(counts).to.deep.include({ pending: 2, held: 2, failed: 0 });
    expect(counts.oldest_pending_at).to.be.a('string');
    const summary = (await dev.site.get('/api/v1/account/apps')).body.data[0].arcade.data_events;
    expect(summary).to.deep.equal({ pending: 2, held: 2, failed: 0 });
    // A release with an events URL goes live (through the real route would need a check; the move is the
    // same function): the held events go out.
    await db()('arcade_releases')
      .where({ app_id: appId })
      .update({ data_events_url: server.url('/events') });
    await db().transaction((trx) => releaseHeldEvents(trx, appId));
    await until(async () => (await record()).data_events.pending === 0);
    expect((await record()).data_events).to.deep.include({ pending: 0, held: 0, failed: 0, oldest_pending_at: null });
  });
});
