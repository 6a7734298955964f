// Delivering events for integrations (DECISIONS: Events for integrations) with the signed-event engine
// (shared/delivery/engine.ts): this file says where they live, where they go (the app's subscription URL,
// while the subscription is active), what they carry, and what their attempts do to the subscription.
//
// An event is written by a trigger in its change's transaction (migration app_events), which cannot send a
// pg-boss job: each worker's dispatcher (workers/event-dispatcher.ts) looks every 200 ms and sends a job for
// each event no job carries yet (queueNewEvents), in one statement. The per-minute sweep does the same for
// anything a dispatcher missed and for lost deliveries.
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

/**
 * Leases the pending events among the ids whose subscription is active and whose type the app may still
 * read, and reads what their attempts need, in one statement (joined to the ids, as the data events' claim).
 */
const CLAIM = `UPDATE app_events e SET leased_until = now() + make_interval(secs => ?)
  FROM unnest(CAST(? AS uuid[])) AS claim(id), app_event_subscriptions s
  WHERE e.id = claim.id AND e.status = 'pending' AND (e.leased_until IS NULL OR e.leased_until < now())
    AND s.app_id = e.app_id AND s.state = 'active' AND ${IN_SCOPE}
  RETURNING e.id, e.app_id, e.account_id, e.type, e.seq, e.subject, e.data, e.attempts, e.redelivery, s.url`;

const UNCLAIMED = `SELECT e.id, e.status, s.state IS DISTINCT FROM 'active' AS held
  FROM app_events e LEFT JOIN app_event_subscriptions s ON s.app_id = e.app_id
  WHERE e.id = ANY(CAST(? AS uuid[]))`;

/** Keeps the data an event's first attempt rendered, for every later attempt (the same body each time). */
const KEEP_DATA = `UPDATE app_events e SET data = x.data
  FROM unnest(CAST(? AS uuid[]), CAST(? AS jsonb[])) AS x(id, data) WHERE e.id = x.id AND e.data IS NULL`;

/** A subscription's attempts: a success clears its failing time, a failure starts it if none is running. */
const TRACK = `UPDATE app_event_subscriptions s SET
    last_success_at = CASE WHEN x.delivered THEN now() ELSE s.last_success_at END,
    failing_since = CASE WHEN x.delivered THEN NULL ELSE coalesce(s.failing_since, now()) END
  FROM unnest(CAST(? AS uuid[]), CAST(? AS boolean[])) AS x(app_id, delivered) WHERE s.app_id = x.app_id`;

/** Disables the active subscriptions among the apps: 410 (`gone`), or failing for three days (`failing`). */
const DISABLE = `UPDATE app_event_subscriptions s SET state = 'disabled', disabled_at = now(),
    disabled_reason = CASE WHEN s.app_id = ANY(CAST(:gone AS uuid[])) THEN 'gone' ELSE 'failing' END, updated_at = now()
  FROM apps a JOIN accounts o ON o.id = a.account_id
  WHERE a.id = s.app_id AND s.state = 'active' AND (s.app_id = ANY(CAST(:gone AS uuid[]))
    OR (s.app_id = ANY(CAST(:failed AS uuid[])) AND s.failing_since < now() - make_interval(days => :days)))
  RETURNING s.app_id, s.url, s.disabled_reason, a.name, o.email`;

/** What each attempt's end does to its subscription, in the ends' transaction. */
async function followAttempts(trx: Knex.Transaction, ended: Array<Ended<AppEvent>>): Promise<void> {
  // One row per app: a success anywhere in the group counts as a success.
  const delivered = new Map<string, boolean>();
  for (const end of ended) {
    delivered.set(end.event.app_id, (delivered.get(end.event.app_id) ?? false) || end.outcome === 'delivered');
  }
  await trx.raw(TRACK, [[...delivered.keys()], [...delivered.values()]] as unknown as Knex.Value[]);
  const gone = [...new Set(ended.filter((end) => end.result.status === 410).map((end) => end.event.app_id))];
  const failed = [...delivered].filter(([, success]) => !success).map(([appId]) => appId);
  if (gone.length === 0 && failed.length === 0) return;
  const { rows } = await trx.raw<{
    rows: Array<{ app_id: string; url: string; disabled_reason: 'gone' | 'failing'; name: string; email: string }>;
  }>(DISABLE, { gone, failed, days: FAILING_DAYS } as unknown as Record<string, Knex.Value>);
  for (const row of rows) await tellOwner(trx, row);
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
      return (await knex.raw(CLAIM, [leaseSeconds, ids])).rows as AppEvent[];
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
 * Sends a job for each pending event no job carries yet (new ones; ones waiting for a re-enabled
 * subscription), a batch per transaction, until none is left; answers how many. Workers racing here skip
 * each other's rows.
 */
export async function queueNewEvents(knex: Knex): Promise<number> {
  let total = 0;
  for (;;) {
    const queued = await knex.transaction(async (trx) => {
      const { rows } = await trx.raw<{ rows: Array<{ id: string }> }>(
        `UPDATE app_events SET queued = true WHERE id IN (
           SELECT e.id FROM app_events e JOIN app_event_subscriptions s ON s.app_id = e.app_id AND s.state = 'active'
           WHERE e.status = 'pending' AND NOT e.queued ORDER BY e.created_at LIMIT ? FOR UPDATE OF e SKIP LOCKED)
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
