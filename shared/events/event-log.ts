// The delivery log of events for integrations (DECISIONS: Events for integrations), as the data events'
// (shared/arcade/delivery-log.ts): an app's events newest first with their attempts, sending a finished one
// again with the same `jti`, and a `ping` event. Unlike the data events' ping, ours is a stored event that
// the delivery job sends like any other, so the log shows its attempts. Each of the three takes 20 an hour
// per app. Finished events and their attempts are kept 30 days (the retention purge).
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, invalidRequest, notFound } from '../platform/errors.js';
import { decodeCursor } from '../platform/paging/cursor.js';
import { lastAttempts, newestFirst, type LogAttempt } from '../delivery/log-pages.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import { queueDeliveries } from '../delivery/engine.js';
import type { App } from '../keys/models.js';
import { AppEvent, AppEventAttempt, AppEventSubscription } from './models.js';

export const EVENT_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** How long finished events and their attempts are kept. */
export const EVENT_LOG_DAYS = 30;

/** DECISIONS: the log, redeliver and ping, each 20 an hour per app. */
const rule = (name: string) => ({ name, failures: 20, windowSeconds: 3600, reason: 'rate_limited' });
const READS = rule('app-event-log');
const REDELIVERIES = rule('app-event-redeliver');
const PINGS = rule('app-event-ping');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface LoggedEvent {
  id: string;
  type: string;
  seq: number;
  status: EventStatus;
  created_at: string;
  delivered_at: string | null;
  failed_at: string | null;
  last_error: string | null;
  attempts: LogAttempt[];
}

interface EventRow {
  id: string;
  type: string;
  seq: string;
  status: EventStatus;
  created_at: Date;
  created_key: string;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}

const COLUMNS = ['id', 'type', 'seq', 'status', 'created_at', 'delivered_at', 'failed_at', 'last_error'];
const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

/** The rows as the log shows them, each with its last attempts, in one more statement. */
async function withAttempts(knex: Knex, rows: EventRow[]): Promise<LoggedEvent[]> {
  const attempts = await lastAttempts(
    knex,
    'app_event_attempts',
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    // bigint comes back as text; an app's seq stays far below 2^53.
    seq: Number(row.seq),
    status: row.status,
    created_at: iso(row.created_at)!,
    delivered_at: iso(row.delivered_at),
    failed_at: iso(row.failed_at),
    last_error: row.last_error,
    attempts: attempts.get(row.id)!,
  }));
}

const selectEvents = (knex: Knex, appId: string) =>
  knex('app_events')
    .where({ app_id: appId })
    .select(...COLUMNS, knex.raw('created_at::text AS created_key'));

export interface EventLogQuery {
  status?: EventStatus;
  cursor?: string;
  limit: number;
}

/** A cursor this service made, but for another app or filter: refused rather than started over. */
const foreignCursor = () =>
  invalidRequest('This cursor belongs to another app or status filter; start again without it.', {
    field: 'cursor',
    reason: 'bad_format',
  });

/** An app's events newest first; `next` is a signed cursor bound to the app and the status filter. */
export async function listAppEvents(knex: Knex, secret: string, appId: string, query: EventLogQuery) {
  return limiterFor(knex, READS).within([appId], async () => {
    const sort = `app-events:${appId}:${query.status ?? ''}`;
    const position = query.cursor ? decodeCursor(secret, query.cursor, sort) : null;
    if (query.cursor && !position) throw foreignCursor();
    const select = selectEvents(knex, appId);
    if (query.status) select.where({ status: query.status });
    const page = await newestFirst<EventRow>(select, position, query.limit, { secret, sort });
    return { data: await withAttempts(knex, page.rows), next: page.next };
  });
}

const eventNotFound = () => notFound('This app has no event with this id.', 'event_not_found');

/** 409 unless the app's subscription is there and active: a sent event needs somewhere to go. */
async function requireActiveSubscription(trx: Knex.Transaction, appId: string): Promise<void> {
  const subscription = await AppEventSubscription.query(trx).findById(appId).select('state');
  if (!subscription) throw conflict('no_events_url', {}, 'The app has no events URL: set its `events` first.');
  if (subscription.state !== 'active') {
    throw conflict('events_disabled', {}, 'The app’s events are disabled: set its `events` again to re-enable them.');
  }
}

/** One event as the log shows it, read in the transaction that changed it (before the job can take it). */
async function oneEvent(trx: Knex.Transaction, appId: string, eventId: string): Promise<LoggedEvent> {
  const row = (await selectEvents(trx, appId).where({ id: eventId }).first()) as EventRow;
  return (await withAttempts(trx, [row]))[0];
}

/**
 * Sends a delivered or failed event again with the same `jti` (a receiver that drops repeats by
 * `webhook-id` drops it): pending again, with one attempt by the `app-event.deliver` job, sent in the same
 * transaction, which delivers or fails it.
 */
export async function redeliverAppEvent(knex: Knex, appId: string, eventId: string): Promise<LoggedEvent> {
  if (!UUID.test(eventId)) throw eventNotFound();
  return limiterFor(knex, REDELIVERIES).within([appId], () =>
    knex.transaction(async (trx) => {
      const event = await AppEvent.query(trx).findOne({ id: eventId, app_id: appId }).forUpdate().select('status');
      if (!event) throw eventNotFound();
      if (event.status !== 'delivered' && event.status !== 'failed') {
        throw conflict('event_not_redeliverable', {}, 'Only a delivered or failed event can be sent again.');
      }
      await requireActiveSubscription(trx, appId);
      await AppEvent.query(trx)
        .findById(eventId)
        .patch({
          status: 'pending',
          redelivery: true,
          queued: true,
          next_attempt_at: trx.fn.now(),
          leased_until: null,
          delivered_at: null,
          failed_at: null,
        });
      await queueDeliveries(trx, 'app-event.deliver', [{ id: eventId }]);
      return oneEvent(trx, appId, eventId);
    }),
  );
}

/**
 * A new `ping` event (no `sub`, `data` {}), sent by the delivery job like any other, so the log shows how
 * it went. Its subject is fresh, so two pings in one transaction are two events.
 */
export async function pingApp(knex: Knex, app: App): Promise<LoggedEvent> {
  return limiterFor(knex, PINGS).within([app.id], () =>
    knex.transaction(async (trx) => {
      await requireActiveSubscription(trx, app.id);
      const { id } = await AppEvent.query(trx).insert({
        app_id: app.id,
        account_id: app.account_id,
        type: 'ping',
        subject: randomUUID(),
        data: {},
        queued: true,
      });
      await queueDeliveries(trx, 'app-event.deliver', [{ id }]);
      return oneEvent(trx, app.id, id);
    }),
  );
}

/**
 * The retention purge's part: finished events whose last change is over 30 days old (with their attempts),
 * and older attempts of events still kept. Pending events stay: they are still owed to the app.
 */
export async function purgeAppEvents(knex: Knex, now = Date.now()): Promise<number> {
  const end = new Date(now - EVENT_LOG_DAYS * 24 * 3600 * 1000);
  // A finished event's last change is its delivered_at or failed_at (a redelivery clears both): the
  // expression of the app_events_finished index.
  const events = await AppEvent.query(knex)
    .whereNot('status', 'pending')
    .whereRaw('coalesce(delivered_at, failed_at) < ?', [end])
    .delete();
  await AppEventAttempt.query(knex).where('attempted_at', '<', end).delete();
  return events;
}
