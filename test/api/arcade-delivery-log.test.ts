// The data-event delivery log (issue #21): a game's events newest first with their attempts (a receiver
// that fails, then succeeds), the status filter, cursor paging, the developer routes' access, sending a
// delivered or failed event again with the same jti, refusing a pending one, a signed ping verified with the
// published key set as a game server would, and the 30 days the log is kept.
import { expect } from 'chai';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { purgeDeliveryLog } from '../../shared/arcade/delivery-log.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { arcadeDeveloper, gameWithPlayer as gameWithPlayerOn } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const DAY = 86_400_000;
type Res = { status: number; body: { error?: { code?: string; reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason];

describe('Arcade: the data-event delivery log', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['data-event.deliver']);
  const app = useTestApp();
  let server: FakeHost;
  let keySet: ReturnType<typeof createRemoteJWKSet>;
  const received: Array<{ payload: JWTPayload; webhookId: string; typ: string | undefined }> = [];

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    keySet = createRemoteJWKSet(new URL(`${app.client.baseUrl}/api/v1/arcade/jwks`));
    server = await startFakeHost();
  });
  after(() => server.close());

  /** The game server's events route: verifies the token, then answers the next of `statuses` (the last repeats). */
  function serveEvents(...statuses: number[]) {
    let answered = 0;
    server.routes['/events'] = (request, response, body) => {
      void (async () => {
        const token = body.toString('utf8');
        const { payload } = await jwtVerify(token, keySet, { issuer: config().publicUrl });
        received.push({
          payload,
          webhookId: String(request.headers['webhook-id']),
          typ: decodeProtectedHeader(token).typ,
        });
        const status = statuses[Math.min(answered, statuses.length - 1)];
        answered += 1;
        response.writeHead(status).end();
      })().catch(() => response.writeHead(401).end());
    };
  }

  const gameWithPlayer = (slug: string, eventsUrl: string | null) =>
    gameWithPlayerOn(app.client, server.origin, slug, eventsUrl);

  const statusOf = async (id: string) => (await db()('arcade_data_events').where({ id }).first('status')).status;
  const logPath = (appId: string) => `/api/v1/account/apps/${appId}/arcade/data-events`;

  /** Events straight in the database, `minutesAgo` apart, as a finished log would hold them. */
  async function seedEvents(appId: string, statuses: string[]) {
    const rows = await db()('arcade_data_events')
      .insert(
        statuses.map((status, i) => ({
          app_id: appId,
          player_id: '00000000-0000-4000-8000-00000000000a',
          type: 'grant_revoked',
          status,
          created_at: new Date(Date.now() - (statuses.length - i) * 60_000),
          delivered_at: status === 'delivered' ? new Date() : null,
          failed_at: status === 'failed' ? new Date() : null,
        })),
      )
      .returning('id');
    return rows.map((row: { id: string }) => row.id);
  }

  it('lists events newest first with their attempts, filters by status and pages by cursor', async () => {
    serveEvents(500, 204);
    const { dev, player, appId } = await gameWithPlayer('log-list', server.url('/events'));
    await player.site.patch(`/api/v1/account/arcade/grants/${appId}`, { nickname: 'Renamed' });
    const event = await db()('arcade_data_events').where({ app_id: appId, type: 'nickname_changed' }).first();
    // The first attempt meets a 500, the scheduled one 5 s later delivers.
    await until(async () => (await statusOf(event.id)) === 'delivered', 15000);

    const listed = await dev.site.get(logPath(appId));
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.next).to.equal(null);
    const [shown] = listed.body.data;
    expect(shown).to.deep.include({ id: event.id, type: 'nickname_changed', status: 'delivered' });
    expect(shown.player_id).to.equal(event.player_id);
    expect(
      shown.attempts.map((a: { http_status: number; outcome: string; error: string | null }) => [
        a.http_status,
        a.outcome,
        a.error,
      ]),
    ).to.deep.equal([
      [204, 'delivered', null],
      [500, 'retrying', null],
    ]);
    expect(shown.attempts[0].duration_ms).to.be.a('number');
    expect(Date.parse(shown.attempts[0].attempted_at)).to.be.greaterThan(Date.parse(shown.attempts[1].attempted_at));

    // Older events of every finished status: the filter picks one status, an unknown status is 400.
    const seeded = await seedEvents(appId, ['failed', 'delivered', 'failed', 'pending']);
    const failed = await dev.site.get(`${logPath(appId)}?status=failed`);
    expect(failed.body.data.map((e: { id: string }) => e.id)).to.deep.equal([seeded[2], seeded[0]]);
    const pending = await dev.site.get(`${logPath(appId)}?status=pending`);
    expect(pending.body.data.map((e: { id: string }) => e.id)).to.deep.equal([seeded[3]]);
    expect((await dev.site.get(`${logPath(appId)}?status=held`)).body.data).to.deep.equal([]);
    const bad = await dev.site.get(`${logPath(appId)}?status=lost`);
    expect(bad.status).to.equal(400);

    // Paging two at a time walks every event once, newest first.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await dev.site.get(`${logPath(appId)}?limit=2${query}`);
      expect(page.status, page.text).to.equal(200);
      expect(page.body.data.length).to.be.at.most(2);
      walked.push(...page.body.data.map((e: { id: string }) => e.id));
      cursor = page.body.next;
    } while (cursor);
    expect(walked).to.deep.equal([event.id, seeded[3], seeded[2], seeded[1], seeded[0]]);
    const tampered = await dev.site.get(`${logPath(appId)}?cursor=abc.def`);
    expect(tampered.status).to.equal(400);
    expect((await dev.site.get(`${logPath(appId)}?limit=101`)).status).to.equal(400);
  });

  it('shows pending events as held while no live release names an events URL', async () => {
    const { dev, player, appId } = await gameWithPlayer('log-held', null);
    await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
    const held = await dev.site.get(`${logPath(appId)}?status=held`);
    expect(held.body.data.map((e: { type: string; status: string }) => [e.type, e.status])).to.deep.equal([
      ['grant_revoked', 'held'],
    ]);
    expect((await dev.site.get(`${logPath(appId)}?status=pending`)).body.data).to.deep.equal([]);
  });

  it('keeps the log to its developer: another account’s app is 404, a key is 403', async () => {
    const { dev, appId } = await gameWithPlayer('log-access', server.url('/events'));
    const [eventId] = await seedEvents(appId, ['delivered']);
    const other = await arcadeDeveloper(app.client);
    expect(refusal(await other.site.get(logPath(appId)))).to.deep.equal([404, 'app_not_found']);
    expect(refusal(await other.site.post(`${logPath(appId)}/${eventId}/redeliver`, {}))).to.deep.equal([
      404,
      'app_not_found',
    ]);
    expect(refusal(await other.site.post(`${logPath(appId)}/ping`, {}))).to.deep.equal([404, 'app_not_found']);
    const { token } = await appWithKey(dev.account.id, ['profile.read']);
    const keyed = await app.client.get(logPath(appId), { headers: { authorization: `Bearer ${token}` } });
    expect(keyed.status).to.equal(403);
    const owing = await arcadeDeveloper(app.client, { passTwoFactor: false });
    expect((await owing.site.get(logPath(owing.app.id))).status).to.equal(403);
  });

  it('sends a delivered or a failed event again with the same jti, and refuses a pending one', async () => {
    serveEvents(204);
    const { dev, player, appId } = await gameWithPlayer('log-redeliver', server.url('/events'));
    await player.site.patch(`/api/v1/account/arcade/grants/${appId}`, { nickname: 'Again' });
    const delivered = await db()('arcade_data_events').where({ app_id: appId, type: 'nickname_changed' }).first();
    await until(async () => (await statusOf(delivered.id)) === 'delivered');

    const again = await dev.site.post(`${logPath(appId)}/${delivered.id}/redeliver`, {});
    expect(again.status, again.text).to.equal(202);
    expect(again.body.data.event).to.deep.include({ id: delivered.id, status: 'pending' });
    await until(async () => received.filter((r) => r.payload.jti === delivered.id).length === 2);
    await until(async () => (await statusOf(delivered.id)) === 'delivered');
    const copies = received.filter((r) => r.payload.jti === delivered.id);
    expect(copies.map((r) => [r.webhookId, r.payload.type, r.payload.sub])).to.deep.equal([
      [delivered.id, 'nickname_changed', delivered.player_id],
      [delivered.id, 'nickname_changed', delivered.player_id],
    ]);

    // A 410 fails an event at once; once the receiver is back, sending it again delivers it.
    serveEvents(410);
    await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
    const revoked = await db()('arcade_data_events').where({ app_id: appId, type: 'grant_revoked' }).first();
    await until(async () => (await statusOf(revoked.id)) === 'failed');
    serveEvents(204);
    expect((await dev.site.post(`${logPath(appId)}/${revoked.id}/redeliver`, {})).status).to.equal(202);
    await until(async () => (await statusOf(revoked.id)) === 'delivered');
    expect(received.filter((r) => r.payload.jti === revoked.id)).to.have.length(2);
    const log = (await dev.site.get(`${logPath(appId)}?status=delivered`)).body.data;
    const shown = log.find((e: { id: string }) => e.id === revoked.id);
    expect(
      shown.attempts.map((a: { http_status: number; outcome: string }) => [a.http_status, a.outcome]),
    ).to.deep.equal([
      [204, 'delivered'],
      [410, 'failed'],
    ]);

    // A redelivery that fails again fails at once (one attempt, no retry schedule).
    serveEvents(500);
    expect((await dev.site.post(`${logPath(appId)}/${revoked.id}/redeliver`, {})).status).to.equal(202);
    await until(async () => (await statusOf(revoked.id)) === 'failed');

    const [pending] = await seedEvents(appId, ['pending']);
    expect(refusal(await dev.site.post(`${logPath(appId)}/${pending}/redeliver`, {}))).to.deep.equal([
      409,
      'event_not_redeliverable',
    ]);
    expect(
      refusal(await dev.site.post(`${logPath(appId)}/00000000-0000-4000-8000-000000000000/redeliver`, {})),
    ).to.deep.equal([404, 'event_not_found']);
    expect(refusal(await dev.site.post(`${logPath(appId)}/not-a-uuid/redeliver`, {}))).to.deep.equal([
      404,
      'event_not_found',
    ]);
    // Another game's event, named under this game: not found.
    const otherGame = await gameWithPlayer('log-redeliver-other', server.url('/events'));
    const [foreign] = await seedEvents(otherGame.appId, ['delivered']);
    expect(refusal(await dev.site.post(`${logPath(appId)}/${foreign}/redeliver`, {}))).to.deep.equal([
      404,
      'event_not_found',
    ]);
  });

  it('pings the live release’s events URL with a signed ping, and refuses without one', async () => {
    serveEvents(204);
    const { dev, appId } = await gameWithPlayer('log-ping', server.url('/events'));
    const ping = await dev.site.post(`${logPath(appId)}/ping`, {});
    expect(ping.status, ping.text).to.equal(200);
    expect(ping.body.data).to.deep.include({
      url: server.url('/events'),
      outcome: 'delivered',
      http_status: 204,
      error: null,
    });
    const got = received.find((r) => r.payload.jti === ping.body.data.id)!;
    expect(got).to.deep.include({ webhookId: ping.body.data.id, typ: 'data-event+jwt' });
    expect(got.payload).to.deep.include({ type: 'ping', aud: appId, data: {} });
    expect(got.payload.sub).to.equal(undefined);
    // Not stored as an event.
    expect(await db()('arcade_data_events').where({ app_id: appId })).to.have.length(0);

    serveEvents(500);
    const failing = await dev.site.post(`${logPath(appId)}/ping`, {});
    expect(failing.body.data).to.deep.include({ outcome: 'failed', http_status: 500, error: null });

    const none = await gameWithPlayer('log-ping-none', null);
    expect(refusal(await none.dev.site.post(`${logPath(none.appId)}/ping`, {}))).to.deep.equal([409, 'no_events_url']);
  });

  it('forgets finished events and their attempts after 30 days, keeping pending ones', async () => {
    const { dev, appId } = await gameWithPlayer('log-purge', null);
    const [oldFailed, oldPending] = await seedEvents(appId, ['failed', 'pending']);
    await db()('arcade_data_event_attempts').insert({
      event_id: oldFailed,
      attempted_at: new Date(),
      http_status: 500,
      duration_ms: 5,
      outcome: 'failed',
    });
    expect(await purgeDeliveryLog(db(), Date.now() + 29 * DAY)).to.equal(0);
    // Earlier tests' finished events go too (the database is cleaned per file).
    expect(await purgeDeliveryLog(db(), Date.now() + 31 * DAY)).to.be.at.least(1);
    const left = (await dev.site.get(logPath(appId))).body.data;
    expect(left.map((e: { id: string }) => e.id)).to.deep.equal([oldPending]);
    expect(await db()('arcade_data_event_attempts').where({ event_id: oldFailed })).to.have.length(0);
  });
});
