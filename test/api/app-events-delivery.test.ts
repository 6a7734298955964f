// Events for integrations: the delivery's guarantees (DECISIONS: Events for integrations), with the worker's
// real job handler and dispatcher in this process and receivers that verify every event against the key set.
// Retries on the schedule and the schedule's end; a 410 that fails the event at once and disables the
// subscription (`gone`), the owner e-mailed once however many 410s come, nothing made while disabled, the
// waiting events sent once `events` is set again; a 410 from a URL the owner has since replaced disabling
// nothing; three days of failures with no success disabling it (`failing`), a success in between starting
// the count over; a receiver that never answers, with a backlog of hundreds, holding back its own app's
// events only and holding few of the worker's slots (the rest deferred); and the app answer's `pending` and `failed` counts following along. Clocks are moved in the
// rows (and a retry's job brought forward), not waited for; the real waits are the 5 s before one first
// retry and the guard's 10 s time-out. (The worker killed mid-delivery: test/processes/app-event-crash.)
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { DEFER_SECONDS, MIN_IN_FLIGHT } from '../../shared/delivery/receiver-load.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { subscribedPerson, type Subscriber } from '../helpers/app-event-types.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startEventReceiver, type EventReceiver } from '../helpers/event-receiver.js';
import { useJobWorker } from '../helpers/job-worker.js';
import * as people from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const DAY_MS = 24 * 3600 * 1000;
/** Events of a receiver that never answers, made together: more than it may have in flight. */
const BACKLOG = 300;

describe('events for integrations: delivery', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['app-event.deliver']);
  const app = useTestApp();
  const receivers: EventReceiver[] = [];

  before(() => ensureSigningKeys(db(), config().secret));
  after(() => Promise.all(receivers.map((receiver) => receiver.close())));

  /** A receiver of its own for one test (its answers changed freely). */
  async function receiver(): Promise<EventReceiver> {
    const started = await startEventReceiver(app.client.baseUrl);
    receivers.push(started);
    return started;
  }

  const subscriber = (username: string, at: EventReceiver) =>
    subscribedPerson(app.client, at, username, ['library.read', 'library.write'], ['library.entry.saved']);

  /** A new game saved to `who`'s library through the route: its event's id. */
  async function save(who: Subscriber, name: string): Promise<string> {
    const game = await people.catalogGame({ name });
    const put = await who.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING' });
    expect(put.status, put.text).to.be.oneOf([200, 201]);
    const event = await db()('app_events')
      .where({ app_id: who.appId, subject: String(game.id) })
      .first('id');
    expect(event, 'the event made with the write').to.not.equal(undefined);
    return event.id as string;
  }

  const row = (id: string) => db()('app_events').where({ id }).first();
  const attemptsOf = (id: string) =>
    db()('app_event_attempts')
      .where({ event_id: id })
      .orderBy('id')
      .select('attempted_at', 'http_status', 'duration_ms', 'error', 'outcome');
  const subscription = (who: Subscriber) => db()('app_event_subscriptions').where({ app_id: who.appId }).first();
  /** The `events` member of the app's answer. */
  async function shown(who: Subscriber) {
    const res = await who.site.get(`/api/v1/account/apps/${who.appId}`);
    expect(res.status, res.text).to.equal(200);
    return res.body.data.events;
  }
  const disabledMails = (who: Subscriber) =>
    db()('email_outbox')
      .where({ to_address: who.account.email, kind: 'events.disabled' })
      .select('subject', 'text_body');
  const reached = async (id: string, status: string, timeoutMs = 10000) =>
    until(async () => (await row(id))?.status === status, timeoutMs);
  const attempted = async (id: string, attempts: number, timeoutMs = 10000) =>
    until(async () => (await row(id))?.attempts === attempts, timeoutMs);
  /** The event's next attempt is due now: its row and its scheduled job moved, instead of waiting. */
  async function dueNow(id: string): Promise<void> {
    await db()('app_events').where({ id }).update({ next_attempt_at: db().fn.now() });
    const moved = await db()
      .withSchema('pgboss')
      .table('job')
      .where({ name: 'app-event.deliver' })
      .whereIn('state', ['created', 'retry'])
      .whereRaw(`data->>'event_id' = ?`, [id])
      .update({ start_after: db().fn.now() });
    expect(moved, 'the scheduled job of the event').to.equal(1);
  }
  /** The event's job ran and found its subscription off (the event waits, untouched). */
  const heldJob = (id: string) =>
    until(
      async () =>
        (await db()
          .withSchema('pgboss')
          .from('job')
          .where({ name: 'app-event.deliver', state: 'completed' })
          .whereRaw(`data->>'event_id' = ?`, [id])
          .whereRaw(`output->>'outcome' = 'held'`)
          .first('id')) !== undefined,
    );

  it('retries a 500 on the schedule, delivers at the next attempt, and fails an event past the schedule', async () => {
    const at = await receiver();
    at.status = 500;
    const who = await subscriber('retry_owner', at);
    const id = await save(who, 'Hollow Knight');
    await attempted(id, 1);
    const waiting = await row(id);
    expect([waiting.status, waiting.last_error]).to.deep.equal(['pending', 'status 500']);
    const [first] = await attemptsOf(id);
    expect(first).to.deep.include({ http_status: 500, error: null, outcome: 'retrying' });
    // The next attempt is due 5 s after this one ended (the schedule's first wait).
    const ended = new Date(first.attempted_at).getTime() + first.duration_ms;
    expect(new Date(waiting.next_attempt_at).getTime() - ended).to.be.closeTo(5000, 5);
    expect(await shown(who)).to.deep.include({ state: 'active', pending: 1, failed: 0 });

    // The receiver recovers: the scheduled attempt delivers, with the same jti.
    at.status = 204;
    await reached(id, 'delivered', 20000);
    expect((await row(id)).attempts).to.equal(2);
    expect((await attemptsOf(id)).map((a) => [a.outcome, a.http_status])).to.deep.equal([
      ['retrying', 500],
      ['delivered', 204],
    ]);
    expect(at.received.map((event) => event.claims.jti)).to.deep.equal([id, id]);
    expect(await shown(who)).to.deep.include({ state: 'active', pending: 0, failed: 0 });

    // An event whose attempts have used up the schedule (nine waits) fails at the next failure.
    at.status = 500;
    const last = await save(who, 'Hollow Knight: Silksong');
    await attempted(last, 1);
    await db()('app_events').where({ id: last }).update({ attempts: 9 });
    await dueNow(last);
    await reached(last, 'failed');
    const failed = await row(last);
    expect([failed.attempts, failed.last_error]).to.deep.equal([10, 'status 500']);
    expect(failed.failed_at).to.be.an.instanceOf(Date);
    expect((await attemptsOf(last)).map((a) => a.outcome)).to.deep.equal(['retrying', 'failed']);
    // One failure is not three days of them: the subscription stays on.
    expect(await shown(who)).to.deep.include({ state: 'active', disabled_reason: null, pending: 0, failed: 1 });
    expect(await disabledMails(who)).to.have.length(0);
  });

  it('fails an event at once on a 410 and disables the subscription (gone), e-mailing the owner once', async () => {
    const at = await receiver();
    at.status = 500;
    const who = await subscriber('gone_owner', at);
    // An event retrying when the 410s come: it waits for the subscription.
    const waiting = await save(who, 'Celeste');
    await attempted(waiting, 1);

    // Three events in flight together: two answered 410 together (one settle), the third once the
    // subscription is already off (a later one).
    const verify = at.host.routes['/events'];
    const held: ServerResponse[] = [];
    at.host.routes['/events'] = (_request, response) => void held.push(response);
    const gone = await Promise.all([save(who, 'Gris'), save(who, 'Ori'), save(who, 'Hades')]);
    await until(async () => held.length === 3);
    for (const one of held.slice(0, 2)) one.writeHead(410).end();
    await until(async () => (await subscription(who)).state === 'disabled');
    held[2].writeHead(410).end();
    for (const id of gone) await reached(id, 'failed');
    for (const id of gone) {
      expect(await row(id)).to.deep.include({ status: 'failed', attempts: 1, last_error: 'status 410' });
      expect((await attemptsOf(id)).map((a) => [a.outcome, a.http_status])).to.deep.equal([['failed', 410]]);
    }
    expect(await subscription(who)).to.deep.include({ state: 'disabled', disabled_reason: 'gone' });
    expect(await shown(who)).to.deep.include({ state: 'disabled', disabled_reason: 'gone', pending: 1, failed: 3 });
    const mails = await disabledMails(who);
    expect(mails).to.have.length(1);
    expect(mails[0].text_body).to.include('410').and.include(at.url);

    // Nothing is made while it is disabled.
    const before = await db()('app_events').where({ app_id: who.appId }).count<Array<{ count: string }>>('* as count');
    const game = await people.catalogGame({ name: 'Dead Cells' });
    const put = await who.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING' });
    expect(put.status, put.text).to.be.oneOf([200, 201]);
    const after = await db()('app_events').where({ app_id: who.appId }).count<Array<{ count: string }>>('* as count');
    expect(after[0].count).to.equal(before[0].count);

    // The waiting event's scheduled job finds the subscription off, and leaves it waiting.
    await dueNow(waiting);
    await heldJob(waiting);
    expect(await row(waiting)).to.deep.include({ status: 'pending', attempts: 1 });

    // Setting `events` again turns it back on, and the waiting event goes out.
    at.host.routes['/events'] = verify;
    at.status = 204;
    const again = await who.site.patch(`/api/v1/account/apps/${who.appId}`, {
      events: { url: at.url, types: ['library.entry.saved'] },
    });
    expect(again.status, again.text).to.equal(200);
    expect(again.body.data.events).to.deep.include({ state: 'active', disabled_reason: null });
    await reached(waiting, 'delivered');
    // Verified twice: the attempt answered 500, and this one.
    expect(at.received.filter((event) => event.claims.jti === waiting)).to.have.length(2);
    expect(await shown(who)).to.deep.include({ state: 'active', disabled_reason: null, pending: 0, failed: 3 });
    expect(await db()('app_events').where({ app_id: who.appId, subject: String(game.id) })).to.have.length(0);
    expect(await disabledMails(who)).to.have.length(1);
  });

  it('disables nothing on a 410 from a URL the owner has since replaced', async () => {
    const old = await receiver();
    const moved = await receiver();
    const who = await subscriber('moved_owner', old);
    // An event in flight at the old URL while the owner moves the subscription; then the old URL says 410.
    const held: ServerResponse[] = [];
    old.host.routes['/events'] = (_request, response) => void held.push(response);
    const late = await save(who, 'Inscryption');
    await until(async () => held.length === 1);
    const patched = await who.site.patch(`/api/v1/account/apps/${who.appId}`, {
      events: { url: moved.url, types: ['library.entry.saved'] },
    });
    expect(patched.status, patched.text).to.equal(200);
    held[0].writeHead(410).end();
    await reached(late, 'failed');
    expect(await row(late)).to.deep.include({ last_error: 'status 410' });
    expect(await subscription(who)).to.deep.include({ state: 'active', disabled_reason: null, url: moved.url });
    expect(await disabledMails(who)).to.have.length(0);
    // The new URL gets the next event.
    const next = await save(who, 'Loop Hero');
    await reached(next, 'delivered');
    expect(moved.received.map((event) => event.claims.jti)).to.deep.equal([next]);
    expect(await shown(who)).to.deep.include({ state: 'active', url: moved.url, pending: 0, failed: 1 });
  });

  it('disables a subscription after three days of failures with no success (failing), a success starting over', async () => {
    const at = await receiver();
    at.status = 500;
    const who = await subscriber('failing_owner', at);
    const first = await save(who, 'Spelunky');
    await attempted(first, 1);
    const failing = await subscription(who);
    expect(failing.failing_since).to.be.an.instanceOf(Date);
    // Three days of failures... then a success: the count starts over.
    await db()('app_event_subscriptions')
      .where({ app_id: who.appId })
      .update({ failing_since: new Date(Date.now() - 3 * DAY_MS - 60_000) });
    at.status = 204;
    await dueNow(first);
    await reached(first, 'delivered');
    const recovered = await subscription(who);
    expect([recovered.state, recovered.failing_since]).to.deep.equal(['active', null]);
    expect(recovered.last_success_at).to.be.an.instanceOf(Date);

    // Failing again, but only just: still on.
    at.status = 500;
    const second = await save(who, 'Spelunky 2');
    await attempted(second, 1);
    const again = await subscription(who);
    expect(again.state).to.equal('active');
    expect(Date.now() - new Date(again.failing_since).getTime()).to.be.below(DAY_MS);

    // Three days of it, and one more failure turns it off, the owner told once.
    await db()('app_event_subscriptions')
      .where({ app_id: who.appId })
      .update({ failing_since: new Date(Date.now() - 3 * DAY_MS - 60_000) });
    const third = await save(who, 'Noita');
    await attempted(third, 1);
    expect(await subscription(who)).to.deep.include({ state: 'disabled', disabled_reason: 'failing' });
    expect(await shown(who)).to.deep.include({ state: 'disabled', disabled_reason: 'failing', pending: 2, failed: 0 });
    const mails = await disabledMails(who);
    expect(mails).to.have.length(1);
    expect(mails[0].text_body).to.include('3 days');
    // The events not yet delivered wait; their retries change nothing and tell nobody again.
    await dueNow(second);
    await heldJob(second);
    expect(await row(second)).to.deep.include({ status: 'pending', attempts: 1 });
    expect(await disabledMails(who)).to.have.length(1);
  });

  it('holds back only its own app’s events when a receiver never answers, with a backlog of them', async function () {
    this.timeout(150_000);
    const hanging = await receiver();
    hanging.hang = true;
    const answering = await receiver();
    const a = await subscriber('hang_a', hanging);
    const b = await subscriber('hang_b', answering);
    // A backlog for A: one import of BACKLOG games, an event each, more than A's receiver may have in flight
    // (MIN_IN_FLIGHT while it has answered nothing).
    const games = await db()('games')
      .insert(Array.from({ length: BACKLOG }, (_, i) => ({ slug: `hang-backlog-${i}`, name: `Backlog ${i}` })))
      .returning('id');
    const imported = await a.site.post('/api/v1/library/import', {
      entries: games.map(({ id }: { id: number }) => ({ game_id: id, status: 'BACKLOG' })),
    });
    expect(imported.status, imported.text).to.equal(200);
    const held: string[] = (await db()('app_events').where({ app_id: a.appId }).select('id')).map(
      (event: { id: string }) => event.id,
    );
    expect(held).to.have.length(BACKLOG);
    const leased = async () => {
      const [{ count }] = await db()('app_events')
        .where({ app_id: a.appId })
        .where('leased_until', '>', db().fn.now())
        .count<Array<{ count: string }>>('* as count');
      return Number(count);
    };
    // A's receiver gets its limit of attempts; the rest are deferred once it has answered nothing for a
    // second: released, not attempted, each with its job sent again for DEFER_SECONDS later.
    const deferred = () =>
      db()('app_events')
        .where({ app_id: a.appId, status: 'pending', attempts: 0 })
        .whereNull('leased_until')
        .where('next_attempt_at', '>', db().fn.now())
        .pluck('id');
    await until(async () => (await deferred()).length === BACKLOG - MIN_IN_FLIGHT);
    expect(await leased()).to.equal(MIN_IN_FLIGHT);
    expect(hanging.requests).to.be.within(1, MIN_IN_FLIGHT);
    const jobs = await db()
      .withSchema('pgboss')
      .table('job')
      .where({ name: 'app-event.deliver', state: 'created' })
      .whereRaw(`data->>'event_id' = ANY(?)`, [await deferred()])
      .whereRaw(`start_after > now() + interval '${DEFER_SECONDS - 3} seconds'`)
      .count<Array<{ count: string }>>('* as count');
    expect(Number(jobs[0].count), 'a job later for each deferred event').to.equal(BACKLOG - MIN_IN_FLIGHT);

    // B's events go out while A's attempts are still in the air.
    const free = [await save(b, 'Inside'), await save(b, 'Limbo')];
    for (const id of free) await reached(id, 'delivered');
    expect(answering.received.map((event) => event.claims.jti).sort()).to.deep.equal([...free].sort());
    expect(await db()('app_events').where({ app_id: a.appId }).where('attempts', '>', 0)).to.have.length(0);
    expect(await shown(b)).to.deep.include({ state: 'active', pending: 0, failed: 0 });

    // A's attempts end at the guard's time-out (waiting for a connection or for an answer), to be tried
    // again; the deferred ones come back and take their place, never more than the limit at once.
    await until(async () => {
      const [{ count }] = await db()('app_events')
        .where({ app_id: a.appId, attempts: 1 })
        .count<Array<{ count: string }>>('* as count');
      return Number(count) >= 2 * MIN_IN_FLIGHT;
    }, 40000);
    const ends = await db()('app_event_attempts as t')
      .join('app_events as e', 'e.id', 't.event_id')
      .where('e.app_id', a.appId)
      .select('t.outcome', 't.http_status', 't.error', 't.attempted_at', 't.duration_ms');
    // The most attempts in the air at once, from their logged starts and lengths (an end written a few
    // milliseconds off its next attempt's start is not an overlap).
    const edges = ends.flatMap((end) => {
      const start = new Date(end.attempted_at).getTime();
      return [
        [start, 1],
        [start + end.duration_ms - 20, -1],
      ];
    });
    edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let [inAir, most] = [0, 0];
    for (const [, step] of edges) most = Math.max(most, (inAir += step));
    expect(most).to.equal(MIN_IN_FLIGHT);
    expect(new Set(ends.map((end) => JSON.stringify([end.outcome, end.http_status, end.error])))).to.deep.equal(
      new Set([JSON.stringify(['retrying', null, 'timeout'])]),
    );
    expect(await shown(a)).to.deep.include({ state: 'active', pending: BACKLOG, failed: 0 });
    // Timing out is failing, not gone: still on.
    expect((await subscription(a)).failing_since).to.be.an.instanceOf(Date);

    // A's receiver answers again: its retries deliver, and its failing time is over.
    hanging.hang = false;
    await until(async () => (await shown(a)).pending === 0, 30000);
    expect(await shown(a)).to.deep.include({ state: 'active', pending: 0, failed: 0 });
    expect(new Set(hanging.received.map((event) => event.claims.jti))).to.deep.equal(new Set(held));
    expect((await subscription(a)).failing_since).to.equal(null);
  });
});
