// The delivery log of events for integrations: an app's events newest first with their attempts (a receiver
// that fails, then succeeds), the status filter and cursor paging, sending a delivered event again with the
// same jti, a ping event verified as an integration would, the refusals (no subscription, a disabled one,
// another account's app, an unknown event), 20 an hour per app for each route, and the 30 days kept.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { purgeAppEvents } from '../../shared/events/event-log.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startEventReceiver, type EventReceiver } from '../helpers/event-receiver.js';
import { appWithKey } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { useJobWorker } from '../helpers/job-worker.js';
import * as people from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const DAY = 86_400_000;
const refusal = (res: TestResponse) => [res.status, res.body.error?.reason];
const ids = (res: TestResponse) => res.body.data.map((e: { id: string }) => e.id);

describe('events for integrations: the delivery log', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['app-event.deliver']);
  const app = useTestApp();
  let receiver: EventReceiver;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    receiver = await startEventReceiver(app.client.baseUrl);
  });
  after(() => receiver.close());
  beforeEach(() => {
    receiver.status = 204;
  });

  /** An app of `username` subscribed to the receiver (or not, with `subscribe` false). */
  async function ownApp(username: string, subscribe = true) {
    const owner = await people.namedPerson(app.client, username);
    const { app: made } = await appWithKey(owner.account.id, ['library.read']);
    if (subscribe) {
      const res = await owner.site.patch(`/api/v1/account/apps/${made.id}`, {
        events: { url: receiver.url, types: ['library.entry.saved'] },
      });
      expect(res.status, res.text).to.equal(200);
    }
    const base = `/api/v1/account/apps/${made.id}/events`;
    return { owner, appId: made.id, base };
  }

  /** Finished or pending events straight in the database, a minute apart, oldest first. */
  async function seedEvents(appId: string, accountId: string, statuses: string[]): Promise<string[]> {
    const rows = await db()('app_events')
      .insert(
        statuses.map((status, i) => ({
          app_id: appId,
          account_id: accountId,
          type: 'ping',
          subject: randomUUID(),
          data: db().raw("'{}'::jsonb"),
          status,
          queued: true,
          created_at: new Date(Date.now() - (statuses.length - i) * 60_000),
          delivered_at: status === 'delivered' ? new Date() : null,
          failed_at: status === 'failed' ? new Date() : null,
        })),
      )
      .returning('id');
    return rows.map((row: { id: string }) => row.id);
  }

  const statusOf = async (id: string) => (await db()('app_events').where({ id }).first('status')).status;

  it('lists events newest first with their attempts, filters by status and pages by cursor', async () => {
    const { owner, appId, base } = await ownApp('log_list');
    const other = await ownApp('log_list_other');
    receiver.status = 500;
    const ping = await owner.site.post(`${base}/ping`, {});
    expect(ping.status, ping.text).to.equal(201);
    const id = ping.body.data.id;
    await until(async () => (await db()('app_event_attempts').where({ event_id: id })).length === 1);
    // The retry comes 5 s after the 500, and delivers.
    receiver.status = 204;
    await until(async () => (await statusOf(id)) === 'delivered', 15000);

    const seeded = await seedEvents(appId, owner.account.id, ['failed', 'delivered', 'failed', 'pending']);
    const listed = await owner.site.get(base);
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.next).to.equal(null);
    expect(ids(listed)).to.deep.equal([id, seeded[3], seeded[2], seeded[1], seeded[0]]);
    const [shown] = listed.body.data;
    expect(shown).to.deep.include({ id, type: 'ping', status: 'delivered', failed_at: null, last_error: null });
    expect(shown.seq).to.be.a('number');
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
    expect(Date.parse(shown.attempts[0].attempted_at)).to.be.above(Date.parse(shown.attempts[1].attempted_at));

    expect(ids(await owner.site.get(`${base}?status=failed`))).to.deep.equal([seeded[2], seeded[0]]);
    expect(ids(await owner.site.get(`${base}?status=pending`))).to.deep.equal([seeded[3]]);
    expect((await owner.site.get(`${base}?status=held`)).status).to.equal(400);

    // Two at a time: every event once, newest first.
    const walked: string[] = [];
    let cursor: string | null = null;
    let first: string | null = null;
    do {
      const page: TestResponse = await owner.site.get(
        `${base}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status, page.text).to.equal(200);
      walked.push(...ids(page));
      cursor = page.body.next;
      first ??= cursor;
    } while (cursor);
    expect(walked).to.deep.equal([id, ...seeded.slice().reverse()]);

    // A cursor is bound to its app and its filter; an edited one is refused too.
    const cursorOf = `cursor=${encodeURIComponent(first!)}`;
    expect(refusal(await owner.site.get(`${base}?status=failed&${cursorOf}`))).to.deep.equal([400, 'bad_format']);
    const theirs = await other.owner.site.get(`${other.base}?${cursorOf}`);
    expect(refusal(theirs)).to.deep.equal([400, 'bad_format']);
    expect((await owner.site.get(`${base}?cursor=abc.def`)).status).to.equal(400);
    for (const limit of ['0', '101', '1.5', 'x']) {
      expect((await owner.site.get(`${base}?limit=${limit}`)).status, limit).to.equal(400);
    }
  });

  it('sends a delivered event again with the same jti, and refuses a pending or unknown one', async () => {
    const { owner, appId, base } = await ownApp('log_again');
    const ping = await owner.site.post(`${base}/ping`, {});
    const id = ping.body.data.id;
    await until(async () => (await statusOf(id)) === 'delivered');

    const again = await owner.site.post(`${base}/${id}/redeliver`, {});
    expect(again.status, again.text).to.equal(200);
    expect(again.body.data).to.deep.include({ id, type: 'ping', status: 'pending', delivered_at: null });
    await until(async () => receiver.received.filter((e) => e.claims.jti === id).length === 2);
    await until(async () => (await statusOf(id)) === 'delivered');
    const copies = receiver.received.filter((e) => e.claims.jti === id);
    expect(copies.map((e) => [e.headers.id, e.claims.aud, e.claims.seq])).to.deep.equal([
      [id, appId, ping.body.data.seq],
      [id, appId, ping.body.data.seq],
    ]);

    const [pending] = await seedEvents(appId, owner.account.id, ['pending']);
    expect(refusal(await owner.site.post(`${base}/${pending}/redeliver`, {}))).to.deep.equal([
      409,
      'event_not_redeliverable',
    ]);
    expect(refusal(await owner.site.post(`${base}/${randomUUID()}/redeliver`, {}))).to.deep.equal([
      404,
      'event_not_found',
    ]);
    expect(refusal(await owner.site.post(`${base}/not-a-uuid/redeliver`, {}))).to.deep.equal([404, 'event_not_found']);
    // Another app's event, named under this one: not found.
    const other = await ownApp('log_again_other');
    const [foreign] = await seedEvents(other.appId, other.owner.account.id, ['delivered']);
    expect(refusal(await owner.site.post(`${base}/${foreign}/redeliver`, {}))).to.deep.equal([404, 'event_not_found']);
  });

  it('pings with a signed ping event: no sub, data {}', async () => {
    const { owner, appId, base } = await ownApp('log_ping');
    const ping = await owner.site.post(`${base}/ping`, {});
    expect(ping.status, ping.text).to.equal(201);
    expect(ping.body.data).to.deep.include({ type: 'ping', status: 'pending', attempts: [] });
    const id = ping.body.data.id;
    await until(async () => receiver.received.some((e) => e.claims.jti === id));
    const got = receiver.received.find((e) => e.claims.jti === id)!;
    expect(got.claims).to.deep.include({ type: 'ping', aud: appId, data: {}, seq: ping.body.data.seq });
    expect(got.claims.sub).to.equal(undefined);
    expect(got.typ).to.equal('event+jwt');
    expect(got.headers.id).to.equal(id);
  });

  it('refuses without a subscription, while it is disabled, and for another account’s app', async () => {
    const bare = await ownApp('log_bare', false);
    const [finished] = await seedEvents(bare.appId, bare.owner.account.id, ['delivered']);
    expect(refusal(await bare.owner.site.post(`${bare.base}/ping`, {}))).to.deep.equal([409, 'no_events_url']);
    expect(refusal(await bare.owner.site.post(`${bare.base}/${finished}/redeliver`, {}))).to.deep.equal([
      409,
      'no_events_url',
    ]);

    const { owner, appId, base } = await ownApp('log_off');
    const [done] = await seedEvents(appId, owner.account.id, ['failed']);
    await db()('app_event_subscriptions')
      .where({ app_id: appId })
      .update({ state: 'disabled', disabled_reason: 'gone', disabled_at: new Date() });
    expect(refusal(await owner.site.post(`${base}/ping`, {}))).to.deep.equal([409, 'events_disabled']);
    expect(refusal(await owner.site.post(`${base}/${done}/redeliver`, {}))).to.deep.equal([409, 'events_disabled']);
    expect(await statusOf(done)).to.equal('failed');

    const stranger = await people.namedPerson(app.client, 'log_stranger');
    expect(refusal(await stranger.site.get(base))).to.deep.equal([404, 'app_not_found']);
    expect(refusal(await stranger.site.post(`${base}/ping`, {}))).to.deep.equal([404, 'app_not_found']);
    expect(refusal(await stranger.site.post(`${base}/${done}/redeliver`, {}))).to.deep.equal([404, 'app_not_found']);
  });

  it('takes 20 pings and 20 redeliveries an hour per app, then 429 with Retry-After', async () => {
    const { owner, appId, base } = await ownApp('log_limits');
    const pings = await Promise.all(Array.from({ length: 25 }, () => owner.site.post(`${base}/ping`, {})));
    expect(pings.filter((res) => res.status === 201)).to.have.length(20);
    const limited = pings.filter((res) => res.status === 429);
    expect(limited).to.have.length(5);
    expect(refusal(limited[0])).to.deep.equal([429, 'rate_limited']);
    expect(Number(limited[0].headers.get('retry-after'))).to.be.above(0);

    const finished = await seedEvents(appId, owner.account.id, Array<string>(25).fill('delivered'));
    const again = await Promise.all(finished.map((id) => owner.site.post(`${base}/${id}/redeliver`, {})));
    expect(again.filter((res) => res.status === 200)).to.have.length(20);
    expect(again.filter((res) => res.status === 429)).to.have.length(5);
    expect(again.find((res) => res.status === 429)!.headers.get('retry-after')).to.match(/^\d+$/);
    // Another app of the same owner has its own allowance.
    const { app: second } = await appWithKey(owner.account.id, ['library.read']);
    await owner.site.patch(`/api/v1/account/apps/${second.id}`, {
      events: { url: receiver.url, types: ['library.entry.saved'] },
    });
    expect((await owner.site.post(`/api/v1/account/apps/${second.id}/events/ping`, {})).status).to.equal(201);
  });

  it('forgets finished events and their attempts after 30 days, keeping pending ones', async () => {
    const { owner, appId, base } = await ownApp('log_purge');
    const [oldFailed, oldDelivered, oldPending, recent] = await seedEvents(appId, owner.account.id, [
      'failed',
      'delivered',
      'pending',
      'delivered',
    ]);
    await db()('app_event_attempts').insert(
      [oldFailed, recent, recent].map((event_id, i) => ({
        event_id,
        attempted_at: new Date(Date.now() - (i === 2 ? 31 * DAY : 0)),
        http_status: 500,
        duration_ms: 5,
        outcome: 'retrying',
      })),
    );
    const aged = new Date(Date.now() - 31 * DAY);
    await db()('app_events')
      .whereIn('id', [oldFailed, oldDelivered, oldPending])
      .update({
        created_at: aged,
        delivered_at: db().raw('CASE WHEN delivered_at IS NULL THEN NULL ELSE ?::timestamptz END', [aged]),
        failed_at: db().raw('CASE WHEN failed_at IS NULL THEN NULL ELSE ?::timestamptz END', [aged]),
      });
    expect(await purgeAppEvents(db())).to.be.at.least(2);
    expect(ids(await owner.site.get(base))).to.deep.equal([recent, oldPending]);
    expect(await db()('app_event_attempts').where({ event_id: oldFailed })).to.have.length(0);
    // The kept event's attempt past 30 days goes; its recent one stays.
    expect(await db()('app_event_attempts').where({ event_id: recent })).to.have.length(1);
    expect(await purgeAppEvents(db())).to.equal(0);
  });
});
