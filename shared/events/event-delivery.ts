// Delivering events for integrations (DECISIONS: Events for integrations) with the signed-event engine
// (shared/delivery/engine.ts): this file says where they live, where they go (the app's subscription URL,
// while the subscription is active), what they carry, and what their attempts do to the subscription.
//
// An event is written by a trigger in its change's transaction (migration app_events), which cannot send a
// pg-boss job: each worker's dispatcher (workers/event-dispatcher.ts) looks every 200 ms and sends a job for
// each event no job carries yet (queueNewEvents), in one statement. The per-minute sweep does the same for
// anything a dispatcher missed and for lost deliveries.
//
// An event's data is rendered at its first attempt, before its claim, so the claim writes the data with the
// lease (one write of the row); what its subscription's state does is one statement per group of ends
// (FOLLOW), writing only the subscriptions that change.
//
// A 410 disables the subscription (`gone`); three days of failures with no success in between disable it
// (`failing`); either way the owner is e-mailed once, when it turns disabled. Events of a disabled
// subscription wait (held) until `events` is set again.
import type { Knex } from 'knex';
import {
  deliverEvents,
  queueDeliveries,
  type ClaimedEvent,
  type DeliveryOutcome,
  type DeliveryTarget,
  type Ended,
} from '../delivery/engine.js';
import type { DeliveryDeps } from '../delivery/signed-post.js';
import { queueEmail } from '../platform/email/outbox.js';
import { renderEventsData } from './event-data.js';
import type { EventType } from './event-types.js';

export interface AppEvent extends ClaimedEvent {
  app_id: string;
  account_id: string;
  type: EventType;
  seq: string;
  subject: string;
  data: unknown;
}

/** Three days of failures with no success disable a subscription. */
export const FAILING_DAYS = 3;

/** The channel that wakes the dispatchers at once (a re-enabled subscription's waiting events). */
export const APP_EVENTS_CHANNEL = 'jogatina_app_events';

/** SQL: the event `e`'s type may still be sent to its app (the scope it needs is held, or it needs none). */
const IN_SCOPE = `(app_event_scope(e.type) IS NULL OR EXISTS (
    SELECT 1 FROM apps a WHERE a.id = e.app_id AND app_event_scope(e.type) = ANY (a.scopes)))`;

/** SQL: the event `e` may be claimed now (pending, not leased, its subscription `s` active, its type in scope). */
const CLAIMABLE = `e.status = 'pending' AND (e.leased_until IS NULL OR e.leased_until < now())
    AND s.app_id = e.app_id AND s.state = 'active' AND ${IN_SCOPE}`;

/**
 * The claimable events among the ids whose data is not rendered yet (what a first attempt renders before
 * its claim, so that the claim writes the data with the lease: one write of the row, not two).
 */
const TO_RENDER = `SELECT e.id, e.account_id, e.type, e.subject
  FROM unnest(CAST(? AS uuid[])) AS claim(id), app_events e, app_event_subscriptions s
  WHERE e.id = claim.id AND e.data IS NULL AND ${CLAIMABLE}`;

/**
 * Leases the claimable events among the ids, keeps the data rendered for them (an event's first attempt;
 * every later one sends the same), and reads what their attempts need, in one statement (joined to the ids,
 * as the data events' claim). An event another attempt rendered first keeps that one's data.
 */
const CLAIM = `UPDATE app_events e SET leased_until = now() + make_interval(secs => ?), data = coalesce(e.data, claim.data)
  FROM unnest(CAST(? AS uuid[]), CAST(? AS jsonb[])) AS claim(id, data), app_event_subscriptions s
  WHERE e.id = claim.id AND ${CLAIMABLE}
  RETURNING e.id, e.app_id, e.account_id, e.type, e.seq, e.subject, e.data, e.attempts, e.redelivery, s.url`;

const UNCLAIMED = `SELECT e.id, e.status, s.state IS DISTINCT FROM 'active' AS held
  FROM app_events e LEFT JOIN app_event_subscriptions s ON s.app_id = e.app_id
  WHERE e.id = ANY(CAST(? AS uuid[]))`;

/**
 * Keeps the data an event's first attempt rendered, for every later attempt (the same body each time): for
 * an event claimed unrendered (its lease had not ended when TO_RENDER looked), which CLAIM usually spares.
 */
const KEEP_DATA = `UPDATE app_events e SET data = x.data
  FROM unnest(CAST(? AS uuid[]), CAST(? AS jsonb[])) AS x(id, data) WHERE e.id = x.id AND e.data IS NULL`;

/** SQL: the attempts `x` had a 410 from the subscription `s`'s URL (not from one it was moved away from meanwhile). */
const GONE = `x.gone_url = s.url`;

/** SQL: the subscription `s` turns disabled with the attempts `x` (a 410, or three days failing and no success). */
const TURNS_OFF = `(s.state = 'active' AND (${GONE} OR (NOT x.delivered AND s.failing_since < now() - make_interval(days => ${FAILING_DAYS}))))`;

/**
 * What a settle group's attempts do to their apps' subscriptions, in one statement: a success clears the
 * failing time, a failure starts it if none is running, and a 410 or three days of failures with no success
 * disable an active one (answered, to be told: `turned_off`). Only the rows that change are locked and
 * written, in the apps' order (settles come a group at a time, one worker's beside another's; with many
 * apps nearly every end is another app's, and rows locked in any order could deadlock two workers' groups);
 * `last_success_at`, which nothing reads, is kept to the minute. The state before is read under the lock
 * (`was`), so of two groups disabling one subscription only the first says it turned it off.
 */
const FOLLOW = `WITH x AS (
    SELECT * FROM unnest(CAST(? AS uuid[]), CAST(? AS boolean[]), CAST(? AS text[])) AS x(app_id, delivered, gone_url)),
  changing AS (
    SELECT s.app_id, s.state AS was, x.delivered, x.gone_url, a.name, o.email
      FROM x JOIN app_event_subscriptions s ON s.app_id = x.app_id
      JOIN apps a ON a.id = s.app_id JOIN accounts o ON o.id = a.account_id
     WHERE ${TURNS_OFF}
        OR CASE WHEN x.delivered
             THEN s.failing_since IS NOT NULL OR s.last_success_at IS NULL OR s.last_success_at < now() - interval '1 minute'
             ELSE s.failing_since IS NULL END
     ORDER BY s.app_id FOR UPDATE OF s)
  UPDATE app_event_subscriptions s SET
    last_success_at = CASE WHEN x.delivered THEN now() ELSE s.last_success_at END,
    failing_since = CASE WHEN x.delivered THEN NULL ELSE coalesce(s.failing_since, now()) END,
    state = CASE WHEN ${TURNS_OFF} THEN 'disabled' ELSE s.state END,
    disabled_reason = CASE WHEN ${TURNS_OFF} THEN CASE WHEN ${GONE} THEN 'gone' ELSE 'failing' END ELSE s.disabled_reason END,
    disabled_at = CASE WHEN ${TURNS_OFF} THEN now() ELSE s.disabled_at END,
    updated_at = CASE WHEN ${TURNS_OFF} THEN now() ELSE s.updated_at END
  FROM changing x WHERE s.app_id = x.app_id
  RETURNING s.app_id, s.url, s.disabled_reason, x.name, x.email, (x.was = 'active' AND s.state = 'disabled') AS turned_off`;

interface Followed {
  app_id: string;
  url: string;
  disabled_reason: 'gone' | 'failing';
  name: string;
  email: string;
  turned_off: boolean;
}

/** What each attempt's end does to its subscription, in the ends' transaction (FOLLOW). */
async function followAttempts(trx: Knex.Transaction, ended: Array<Ended<AppEvent>>): Promise<void> {
  // One row per app: a success anywhere in the group counts as a success, a 410 anywhere as a 410 (from
  // the URL it was sent to: one the owner has since replaced disables nothing).
  const apps = new Map<string, { delivered: boolean; goneUrl: string | null }>();
  for (const end of ended) {
    const app = apps.get(end.event.app_id) ?? { delivered: false, goneUrl: null };
    app.delivered ||= end.outcome === 'delivered';
    if (end.result.status === 410) app.goneUrl = end.event.url;
    apps.set(end.event.app_id, app);
  }
  const ids = [...apps.keys()].sort();
  const { rows } = await trx.raw<{ rows: Followed[] }>(FOLLOW, [
    ids,
    ids.map((id) => apps.get(id)!.delivered),
    ids.map((id) => apps.get(id)!.goneUrl),
  ] as unknown as Knex.Value[]);
  for (const row of rows) if (row.turned_off) await tellOwner(trx, row);
}

/** The one e-mail of a subscription turned disabled. */
async function tellOwner(
  trx: Knex.Transaction,
  row: { app_id: string; url: string; disabled_reason: 'gone' | 'failing'; name: string; email: string },
): Promise<void> {
  const why =
    row.disabled_reason === 'gone'
      ? `answered 410 Gone`
      : `has not accepted an event for ${FAILING_DAYS} days while events kept failing`;
  await queueEmail(trx, {
    to: row.email,
    subject: `Events for your app "${row.name}" are turned off`,
    text:
      `The URL your app "${row.name}" receives events at (${row.url}) ${why}, so we stopped sending events to it.\n\n` +
      `Events not yet delivered wait for it, and no new ones are made meanwhile. Set the app's events again (PATCH /api/v1/account/apps/${row.app_id}) to ` +
      `turn them back on, and the waiting ones are sent.`,
    kind: 'events.disabled',
  });
}

/** The events for integrations as the engine delivers them; `mediaUrl` builds the data's image URLs. */
export function appEventsTarget(mediaUrl: (key: string) => string): DeliveryTarget<AppEvent> {
  return {
    table: 'app_events',
    attemptsTable: 'app_event_attempts',
    queue: 'app-event.deliver',
    typ: 'event+jwt',
    async claim(knex, ids, leaseSeconds) {
      const { rows: fresh } = await knex.raw<{
        rows: Array<{ id: string; account_id: string; type: EventType; subject: string }>;
      }>(TO_RENDER, [ids]);
      const rendered = new Map<string, string>();
      if (fresh.length > 0) {
        const data = await renderEventsData(knex, fresh, mediaUrl);
        fresh.forEach((event, index) => rendered.set(event.id, JSON.stringify(data[index])));
      }
      const { rows } = await knex.raw(CLAIM, [
        leaseSeconds,
        ids,
        ids.map((id) => rendered.get(id) ?? null),
      ] as unknown as Knex.Value[]);
      return rows as AppEvent[];
    },
    async unclaimed(knex, ids) {
      const outcomes = new Map<string, DeliveryOutcome>(ids.map((id) => [id, 'done']));
      if (ids.length === 0) return outcomes;
      const { rows } = await knex.raw(UNCLAIMED, [ids]);
      for (const row of rows as Array<{ id: string; status: string; held: boolean }>) {
        if (row.status === 'pending' && row.held) outcomes.set(row.id, 'held');
      }
      return outcomes;
    },
    async prepare(knex, events) {
      const fresh = events.filter((event) => event.data === null);
      if (fresh.length === 0) return;
      const rendered = await renderEventsData(knex, fresh, mediaUrl);
      fresh.forEach((event, index) => (event.data = rendered[index]));
      await knex.raw(KEEP_DATA, [
        fresh.map((event) => event.id),
        fresh.map((event) => JSON.stringify(event.data)),
      ] as unknown as Knex.Value[]);
    },
    claims: (event) => ({
      aud: event.app_id,
      jti: event.id,
      type: event.type,
      ...(event.type === 'ping' ? {} : { sub: event.account_id }),
      seq: Number(event.seq),
      data: event.data,
    }),
    settled: followAttempts,
  };
}

/** One attempt at each of the events `ids` (deliverEvents: how, and what the callbacks hear). */
export function deliverAppEvents(
  knex: Knex,
  ids: string[],
  deps: DeliveryDeps,
  mediaUrl: (key: string) => string,
): Promise<Map<string, DeliveryOutcome>> {
  return deliverEvents(appEventsTarget(mediaUrl), knex, ids, deps);
}

/** Events sent a job at most per statement. */
const QUEUE_BATCH = 1000;

/**
 * SQL: pending events no job carries yet, of active subscriptions (the `queued = false` part of
 * app_events_due; a new event's next_attempt_at is its created_at).
 */
const UNQUEUED = `app_events e JOIN app_event_subscriptions s ON s.app_id = e.app_id AND s.state = 'active'
  WHERE e.status = 'pending' AND NOT e.queued`;

/**
 * Sends a job for each pending event no job carries yet (new ones; ones waiting for a re-enabled
 * subscription), a batch per transaction, until none is left; answers how many. Workers racing here skip
 * each other's rows. A look that finds none (most of a dispatcher's, every 200 ms) is one read, with no
 * transaction.
 */
export async function queueNewEvents(knex: Knex): Promise<number> {
  const { rows: look } = await knex.raw<{ rows: Array<{ found: boolean }> }>(
    `SELECT EXISTS (SELECT 1 FROM ${UNQUEUED}) AS found`,
  );
  if (!look[0].found) return 0;
  let total = 0;
  for (;;) {
    const queued = await knex.transaction(async (trx) => {
      const { rows } = await trx.raw<{ rows: Array<{ id: string }> }>(
        `UPDATE app_events SET queued = true WHERE id IN (
           SELECT e.id FROM ${UNQUEUED} ORDER BY e.next_attempt_at LIMIT ? FOR UPDATE OF e SKIP LOCKED)
         RETURNING id`,
        [QUEUE_BATCH],
      );
      await queueDeliveries(trx, 'app-event.deliver', rows);
      return rows.length;
    });
    total += queued;
    if (queued < QUEUE_BATCH) return total;
  }
}

/**
 * The sweep: new events no dispatcher queued, pending events due for a while with no job (a worker died),
 * and events of a type whose scope their app lost while they were written (failed, `scope_removed`).
 */
export async function sweepAppEvents(knex: Knex): Promise<{ queued: number; requeued: number; outOfScope: number }> {
  const outOfScope = await failOutOfScope(knex);
  const queued = await queueNewEvents(knex);
  const due: Array<{ id: string }> = await knex('app_events as e')
    .join('app_event_subscriptions as s', 's.app_id', 'e.app_id')
    .where({ 'e.status': 'pending', 'e.queued': true, 's.state': 'active' })
    .where('e.next_attempt_at', '<', new Date(Date.now() - 60_000))
    .where((q) => q.whereNull('e.leased_until').orWhere('e.leased_until', '<', knex.fn.now()))
    .orderBy('e.next_attempt_at')
    .limit(QUEUE_BATCH)
    .select('e.id');
  await knex.transaction((trx) => queueDeliveries(trx, 'app-event.deliver', due));
  return { queued, requeued: due.length, outOfScope };
}

/**
 * Fails the pending events of `appId` (every app when null) whose type needs a scope the app no longer
 * holds: an app that loses a scope stops getting its types at once.
 */
export async function failOutOfScope(knex: Knex | Knex.Transaction, appId: string | null = null): Promise<number> {
  const { rowCount } = await knex.raw(
    `UPDATE app_events e SET status = 'failed', failed_at = now(), last_error = 'scope_removed', leased_until = NULL
     WHERE e.status = 'pending' AND (CAST(? AS uuid) IS NULL OR e.app_id = CAST(? AS uuid)) AND NOT ${IN_SCOPE}`,
    [appId, appId],
  );
  return rowCount ?? 0;
}
