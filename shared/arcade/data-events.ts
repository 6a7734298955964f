// Data events to a game's server (spec: Events; DECISIONS: Arcade). An event is a row written in the same
// transaction as the change that causes it, so none is lost and none exists without its change. It is
// delivered by the `data-event.deliver` job as a signed JWT to the live release's `data_events_url`,
// through the outbound guard, on the retry schedule of DECISIONS. While no live release names an events
// URL the event waits (held) and no job runs; making such a release live sends the waiting ones.
import type { Knex } from 'knex';
import { queueDeliveries as queueJobs } from '../delivery/engine.js';
import { DataEvent } from './player-models.js';

export type DataEventType = 'nickname_changed' | 'grant_revoked' | 'grant_forgotten';

export { RETRY_SCHEDULE_SECONDS } from '../delivery/engine.js';

/**
 * SQL: the events URL of the live release of the game whose app id is the SQL expression `appId`, or null
 * (the game's events are then held): the one rule of liveEventsUrl, the delivery's claim and the sweep.
 */
export const liveEventsUrlSql = (appId: string) => `(SELECT r.data_events_url FROM arcade_apps a
    JOIN arcade_releases r ON r.id = a.live_release_id WHERE a.app_id = ${appId} AND a.status <> 'removed')`;

/** The events URL of the game's live release, or null (the game's events are then held). */
export async function liveEventsUrl(knex: Knex | Knex.Transaction, appId: string): Promise<string | null> {
  const { rows } = await knex.raw(`SELECT ${liveEventsUrlSql('?')} AS url`, [appId]);
  return (rows[0]?.url as string | null | undefined) ?? null;
}

/** Sends the delivery job of one event (the event row's lease keeps two jobs from sending it at once). */
export async function queueDelivery(trx: Knex.Transaction, eventId: string): Promise<void> {
  await queueDeliveries(trx, [{ id: eventId }]);
}

/**
 * Sends the delivery jobs of many events in one statement, each after its own delay (none by default): a
 * backlog's first delivery starts at commit, not after thousands of sends.
 */
export async function queueDeliveries(
  trx: Knex.Transaction,
  events: Array<{ id: string; delaySeconds?: number }>,
): Promise<void> {
  await queueJobs(trx, 'data-event.deliver', events);
}

export async function recordDataEvent(
  trx: Knex.Transaction,
  appId: string,
  playerId: string,
  type: DataEventType,
  data: Record<string, unknown>,
): Promise<string> {
  const row = await DataEvent.query(trx).insert({ app_id: appId, player_id: playerId, type, data }).returning('id');
  if (await liveEventsUrl(trx, appId)) await queueDelivery(trx, row.id);
  return row.id;
}

/** A release with an events URL went live: the game's held events go out now. */
export async function releaseHeldEvents(trx: Knex.Transaction, appId: string): Promise<number> {
  const held = await DataEvent.query(trx)
    .where({ app_id: appId, status: 'pending' })
    .orderBy('created_at')
    .select('id');
  await queueDeliveries(trx, held);
  return held.length;
}

export interface DataEventCounts {
  pending: number;
  held: number;
  failed: number;
  oldest_pending_at: string | null;
}

/** The app answers' `data_events`, computed from the database for several games in one statement. */
export async function dataEventCounts(knex: Knex, appIds: string[]): Promise<Map<string, DataEventCounts>> {
  const counts = new Map<string, DataEventCounts>(
    appIds.map((id) => [id, { pending: 0, held: 0, failed: 0, oldest_pending_at: null }]),
  );
  if (appIds.length === 0) return counts;
  const { rows } = await knex.raw<{
    rows: Array<{ app_id: string; pending: number; failed: number; oldest: Date | null; has_url: boolean }>;
  }>(
    `SELECT a.app_id,
       (SELECT count(*) FROM arcade_data_events e WHERE e.app_id = a.app_id AND e.status = 'pending')::int AS pending,
       (SELECT count(*) FROM arcade_data_events e WHERE e.app_id = a.app_id AND e.status = 'failed')::int AS failed,
       (SELECT min(created_at) FROM arcade_data_events e WHERE e.app_id = a.app_id AND e.status = 'pending') AS oldest,
       EXISTS (SELECT 1 FROM arcade_releases r WHERE r.id = a.live_release_id AND r.data_events_url IS NOT NULL
               AND a.status <> 'removed') AS has_url
     FROM arcade_apps a WHERE a.app_id = ANY(CAST(:ids AS uuid[]))`,
    { ids: appIds as unknown as Knex.Value },
  );
  for (const row of rows) {
    counts.set(row.app_id, {
      pending: row.pending,
      // Pending events wait for a release with an events URL when the live one has none.
      held: row.has_url ? 0 : row.pending,
      failed: row.failed,
      oldest_pending_at: row.oldest ? new Date(row.oldest).toISOString() : null,
    });
  }
  return counts;
}
