// The data-event delivery log (issue #21): a game's events newest first with their attempts, sending a
// finished event again with the same `jti`, and a signed `ping` to the live release's events URL. Events and
// attempts are kept 30 days (the retention purge). An event's shown status is its row's, except that a
// pending one is `held` while no live release names an events URL.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, notFound } from '../platform/errors.js';
import { decodeCursor } from '../platform/paging/cursor.js';
import { lastAttempts, newestFirst, type LogAttempt } from '../delivery/log-pages.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import { liveEventsUrl, queueDelivery } from './data-events.js';
import { sendSignedEvent, type DeliveryDeps } from '../delivery/signed-post.js';
import { fn, raw } from 'objection';
import { DataEvent, DataEventAttempt } from './player-models.js';

export const LOG_STATUSES = ['pending', 'held', 'delivered', 'failed'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/** How long events and their attempts are kept. */
export const DELIVERY_LOG_DAYS = 30;

/** Sending an event again: 20 an hour per game. */
const REDELIVERIES = { name: 'arcade-data-event-redeliver', failures: 20, windowSeconds: 3600, reason: 'rate_limited' };
/** Pings: 20 an hour per game. */
const PINGS = { name: 'arcade-data-event-ping', failures: 20, windowSeconds: 3600, reason: 'rate_limited' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface LogEvent {
  id: string;
  type: string;
  player_id: string;
  status: LogStatus;
  created_at: string;
  delivered_at: string | null;
  failed_at: string | null;
  attempts: LogAttempt[];
}

interface EventRow {
  id: string;
  type: string;
  player_id: string;
  status: string;
  created_at: Date;
  created_key: string;
  delivered_at: Date | null;
  failed_at: Date | null;
}

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

async function withAttempts(knex: Knex, rows: EventRow[], held: boolean): Promise<LogEvent[]> {
  const attempts = await lastAttempts(
    knex,
    'arcade_data_event_attempts',
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    player_id: row.player_id,
    status: row.status === 'pending' && held ? 'held' : (row.status as LogStatus),
    created_at: iso(row.created_at)!,
    delivered_at: iso(row.delivered_at),
    failed_at: iso(row.failed_at),
    attempts: attempts.get(row.id)!,
  }));
}

const COLUMNS = ['id', 'type', 'player_id', 'status', 'created_at', 'delivered_at', 'failed_at'];

export interface LogQuery {
  status?: LogStatus;
  cursor?: string;
  limit: number;
}

/** A game's events newest first; `next` is a signed cursor bound to the game and the status filter. */
export async function listDeliveryLog(knex: Knex, secret: string, appId: string, query: LogQuery) {
  const held = (await liveEventsUrl(knex, appId)) === null;
  const sort = `arcade-data-events:${appId}:${query.status ?? ''}`;
  const position = query.cursor ? decodeCursor(secret, query.cursor, sort) : null;
  const select = knex('arcade_data_events')
    .where({ app_id: appId })
    .select(...COLUMNS, knex.raw('created_at::text AS created_key'));
  if (query.status === 'held' || query.status === 'pending') {
    // Both are pending rows: which one they are depends on the live release, the same for all of them.
    if (held !== (query.status === 'held')) select.whereRaw('false');
    else select.where({ status: 'pending' });
  } else if (query.status) {
    select.where({ status: query.status });
  }
  const page = await newestFirst<EventRow>(select, position, query.limit, { secret, sort });
  return { data: await withAttempts(knex, page.rows, held), next: page.next };
}

const eventNotFound = () => notFound('This game has no data event with this id.', 'event_not_found');
const noEventsUrl = () => conflict('no_events_url', {}, 'The game has no live release with an events URL to send to.');

async function oneEvent(knex: Knex, appId: string, eventId: string): Promise<LogEvent> {
  const row = await DataEvent.query(knex)
    .select(...COLUMNS, raw('created_at::text AS created_key'))
    .findOne({ id: eventId, app_id: appId })
    .castTo<EventRow | undefined>();
  if (!row) throw eventNotFound();
  const held = (await liveEventsUrl(knex, appId)) === null;
  return (await withAttempts(knex, [row], held))[0];
}

/**
 * Sends a delivered or failed event again, same `jti` (a receiver that drops repeats by `webhook-id` drops it):
 * the event is pending again and one attempt, by the `data-event.deliver` job, delivers or fails it.
 */
export async function redeliverEvent(knex: Knex, appId: string, eventId: string): Promise<LogEvent> {
  if (!UUID.test(eventId)) throw eventNotFound();
  return limiterFor(knex, REDELIVERIES).within([appId], async () => {
    await knex.transaction(async (trx) => {
      const event = await DataEvent.query(trx)
        .select('id', 'status')
        .findOne({ id: eventId, app_id: appId })
        .forUpdate();
      if (!event) throw eventNotFound();
      if (event.status !== 'delivered' && event.status !== 'failed') {
        throw conflict('event_not_redeliverable', {}, 'Only a delivered or failed event can be sent again.');
      }
      if (!(await liveEventsUrl(trx, appId))) throw noEventsUrl();
      await DataEvent.query(trx).findById(eventId).patch({
        status: 'pending',
        redelivery: true,
        next_attempt_at: fn.now(),
        leased_until: null,
        delivered_at: null,
        failed_at: null,
      });
      await queueDelivery(trx, eventId);
    });
    return oneEvent(knex, appId, eventId);
  });
}

export interface PingAnswer {
  id: string;
  url: string;
  outcome: 'delivered' | 'failed';
  http_status: number | null;
  duration_ms: number;
  error: string | null;
}

/**
 * A signed `ping` (type `ping`, no `sub`, `data` {}, a fresh `jti`) sent once, now, to the live release's
 * events URL; not stored as an event. 2xx is `delivered`, anything else `failed`.
 */
export async function pingEventsUrl(knex: Knex, appId: string, deps: DeliveryDeps): Promise<PingAnswer> {
  const url = await liveEventsUrl(knex, appId);
  if (!url) throw noEventsUrl();
  return limiterFor(knex, PINGS).within([appId], async () => {
    const id = randomUUID();
    const result = await sendSignedEvent(
      knex,
      url,
      { aud: appId, jti: id, type: 'ping', data: {} },
      deps,
      'data-event+jwt',
    );
    const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
    return {
      id,
      url,
      outcome: ok ? 'delivered' : 'failed',
      http_status: result.status ?? null,
      duration_ms: result.durationMs,
      error: result.status !== undefined ? null : (result.error ?? 'unknown'),
    };
  });
}

/**
 * The retention purge's part: finished events whose last change is over 30 days old (with their attempts),
 * and older attempts of events still kept. Pending and held events stay: they are still owed to the game.
 */
export async function purgeDeliveryLog(knex: Knex, now = Date.now()): Promise<number> {
  const end = new Date(now - DELIVERY_LOG_DAYS * 24 * 3600 * 1000);
  const events = await DataEvent.query(knex)
    .whereIn('status', ['delivered', 'failed'])
    .whereRaw('GREATEST(created_at, delivered_at, failed_at) < ?', [end])
    .delete();
  await DataEventAttempt.query(knex).where('attempted_at', '<', end).delete();
  return events;
}
