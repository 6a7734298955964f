// Data events to a game's server (DECISIONS: Arcade, data events), delivered by the signed-event engine
// (shared/delivery/engine.ts): this file says where they live and where they go. A data event goes to the
// live release's `data_events_url`; while no live release names one, the event is held (left unclaimed).
import type { Knex } from 'knex';
import { deliverEvents, type ClaimedEvent, type DeliveryOutcome, type DeliveryTarget } from '../delivery/engine.js';
import type { DeliveryDeps } from '../delivery/signed-post.js';
import { liveEventsUrlSql, queueDeliveries } from './data-events.js';
import { fn } from 'objection';
import { DataEvent as DataEventModel } from './player-models.js';

export { LEASE_SECONDS } from '../delivery/engine.js';
export type { DeliveryOutcome } from '../delivery/engine.js';
export type { DeliveryDeps } from '../delivery/signed-post.js';

/** A data event as its claim reads it (the claim's SQL: the `data-events` benchmark). */
interface DataEvent extends ClaimedEvent {
  app_id: string;
  player_id: string;
  type: string;
  data: Record<string, unknown>;
}

/**
 * Takes the leases of the events among `ids` that are pending and not leased, and reads what their attempts
 * need, in one statement: each event and its game's live events URL (an event whose game has none is held,
 * and left unleased). One UPDATE joined to the ids, not to a CTE of the same table: that self-join, on a
 * backlog released before PostgreSQL had counted its rows, was planned as a loop over every pending event
 * probing an index whose first column is not the id: 260 ms and 130,000 buffers to claim 750 of 3,000,
 * where this takes 9 ms (exported for the test of that plan).
 */
export const CLAIM = `UPDATE arcade_data_events e SET leased_until = now() + make_interval(secs => ?)
  FROM unnest(CAST(? AS uuid[])) AS claim(id)
  WHERE e.id = claim.id AND e.status = 'pending' AND (e.leased_until IS NULL OR e.leased_until < now())
    AND ${liveEventsUrlSql('e.app_id')} IS NOT NULL
  RETURNING e.id, e.app_id, e.player_id, e.type, e.data, e.status, e.attempts, e.redelivery,
    ${liveEventsUrlSql('e.app_id')} AS url`;

/**
 * Why events could not be claimed, in one statement: gone, settled or leased by another job ('done'), or
 * waiting for an events URL ('held'; making a release with one live queues it again).
 */
const UNCLAIMED = `SELECT e.id, e.status, ${liveEventsUrlSql('e.app_id')} IS NOT NULL AS live
  FROM arcade_data_events e WHERE e.id = ANY(CAST(? AS uuid[]))`;

export const DATA_EVENTS: DeliveryTarget<DataEvent> = {
  table: 'arcade_data_events',
  attemptsTable: 'arcade_data_event_attempts',
  queue: 'data-event.deliver',
  typ: 'data-event+jwt',
  async claim(knex, ids, leaseSeconds) {
    return (await knex.raw(CLAIM, [leaseSeconds, ids])).rows as DataEvent[];
  },
  async unclaimed(knex, ids) {
    const outcomes = new Map<string, DeliveryOutcome>(ids.map((id) => [id, 'done']));
    if (ids.length === 0) return outcomes;
    const { rows } = await knex.raw(UNCLAIMED, [ids]);
    for (const row of rows as Array<{ id: string; status: string; live: boolean }>) {
      if (row.status === 'pending' && !row.live) outcomes.set(row.id, 'held');
    }
    return outcomes;
  },
  claims: (event) => ({ aud: event.app_id, jti: event.id, type: event.type, sub: event.player_id, data: event.data }),
};

/** One attempt at each of the data events `ids` (deliverEvents: how, and what the callbacks hear). */
export function deliverDataEvents(
  knex: Knex,
  ids: string[],
  deps: DeliveryDeps,
  onSettled?: (outcomes: Map<string, DeliveryOutcome>) => void,
  onFailed?: (eventId: string, error: unknown) => void,
): Promise<Map<string, DeliveryOutcome>> {
  return deliverEvents(DATA_EVENTS, knex, ids, deps, onSettled, onFailed);
}

/** Pending events due for a while with no job to carry them (a worker died): queued again, held ones not. */
export async function sweepDataEvents(knex: Knex): Promise<number> {
  const due = await DataEventModel.query(knex)
    .alias('e')
    .where({ 'e.status': 'pending' })
    .where('e.next_attempt_at', '<', new Date(Date.now() - 60_000))
    .where((q) => q.whereNull('e.leased_until').orWhere('e.leased_until', '<', fn.now()))
    .whereRaw(`${liveEventsUrlSql('e.app_id')} IS NOT NULL`)
    .orderBy('e.next_attempt_at')
    .limit(1000)
    .select('e.id');
  await knex.transaction((trx) => queueDeliveries(trx, due));
  return due.length;
}
