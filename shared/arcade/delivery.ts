// One delivery attempt of a data event (DECISIONS: Arcade, data events): a JWT signed like identity
// tokens (header typ `data-event+jwt`), POSTed as `application/jwt` with `webhook-id` through the outbound
// guard. 2xx delivers; 410 fails at once; anything else (another status, a time-out, a refused address)
// schedules the next attempt on the retry schedule, then fails. The row changes only after the attempt, so
// a worker that dies in the middle leaves the event pending, leased for 15 s, for the next job or the
// sweeper. Delivery is at least once: a receiver drops repeats by `webhook-id`.
import type { Knex } from 'knex';
import { guardedFetch } from '../platform/net/guarded-fetch.js';
import { isOutboundRefused } from '../platform/net/outbound-refused.js';
import { signToken } from '../identity/signing-keys.js';
import { liveEventsUrl, queueDelivery, RETRY_SCHEDULE_SECONDS } from './data-events.js';

export interface DeliveryDeps {
  secret: string;
  /** PUBLIC_URL: the tokens' `iss`. */
  issuer: string;
  /** Whole-attempt limit (the guard's 10 s by default). */
  timeoutMs?: number;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'retrying' | 'held' | 'done';

interface EventRow {
  id: string;
  app_id: string;
  player_id: string;
  type: string;
  data: Record<string, unknown>;
  status: string;
  attempts: number;
}

async function attempt(
  url: string,
  event: EventRow,
  deps: DeliveryDeps,
  knex: Knex,
): Promise<{ status?: number; error?: string }> {
  const token = await signToken(
    knex,
    deps.secret,
    { iss: deps.issuer, aud: event.app_id, jti: event.id, type: event.type, sub: event.player_id, data: event.data },
    { typ: 'data-event+jwt' },
  );
  try {
    const response = await guardedFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/jwt', 'webhook-id': event.id },
      body: token,
      followRedirects: false,
      maxBytes: 64 * 1024,
      timeoutMs: deps.timeoutMs,
    });
    return { status: response.status };
  } catch (error) {
    if (isOutboundRefused(error)) return { error: error.reason };
    throw error;
  }
}

/** How long an attempt holds its event: more than the guard's 10 s for the whole request. */
export const LEASE_SECONDS = 15;

export async function deliverDataEvent(knex: Knex, eventId: string, deps: DeliveryDeps): Promise<DeliveryOutcome> {
  const event = (await knex('arcade_data_events').where({ id: eventId }).first()) as EventRow | undefined;
  if (!event || event.status !== 'pending') return 'done';
  const url = await liveEventsUrl(knex, event.app_id);
  // Held: making a release with an events URL live queues it again.
  if (!url) return 'held';
  // Another job holds it (a sweep raced a scheduled attempt): that one reports the outcome.
  const leased = await knex('arcade_data_events')
    .where({ id: event.id, status: 'pending' })
    .where((q) => q.whereNull('leased_until').orWhere('leased_until', '<', knex.fn.now()))
    .update({ leased_until: knex.raw(`now() + interval '${LEASE_SECONDS} seconds'`) });
  if (leased === 0) return 'done';
  const result = await attempt(url, event, deps, knex);
  const attempts = event.attempts + 1;
  if (result.status !== undefined && result.status >= 200 && result.status < 300) {
    await knex('arcade_data_events')
      .where({ id: event.id, status: 'pending' })
      .update({ status: 'delivered', attempts, delivered_at: knex.fn.now(), last_error: null, leased_until: null });
    return 'delivered';
  }
  const lastError = result.status !== undefined ? `status ${result.status}` : (result.error ?? 'unknown');
  if (result.status === 410 || attempts > RETRY_SCHEDULE_SECONDS.length) {
    await knex('arcade_data_events')
      .where({ id: event.id, status: 'pending' })
      .update({ status: 'failed', attempts, failed_at: knex.fn.now(), last_error: lastError, leased_until: null });
    return 'failed';
  }
  const wait = RETRY_SCHEDULE_SECONDS[attempts - 1];
  await knex.transaction(async (trx) => {
    await trx('arcade_data_events')
      .where({ id: event.id, status: 'pending' })
      .update({
        attempts,
        last_error: lastError,
        next_attempt_at: new Date(Date.now() + wait * 1000),
        leased_until: null,
      });
    await queueDelivery(trx, event.id, wait);
  });
  return 'retrying';
}

/** Pending events due for a while with no job to carry them (a worker died): queued again. */
export async function sweepDataEvents(knex: Knex): Promise<number> {
  const due: Array<{ id: string }> = await knex('arcade_data_events')
    .where({ status: 'pending' })
    .where('next_attempt_at', '<', new Date(Date.now() - 60_000))
    .where((q) => q.whereNull('leased_until').orWhere('leased_until', '<', knex.fn.now()))
    .orderBy('next_attempt_at')
    .limit(1000)
    .select('id');
  const live = new Map<string, boolean>();
  let queued = 0;
  await knex.transaction(async (trx) => {
    for (const { id } of due) {
      const { app_id: appId } = await trx('arcade_data_events').where({ id }).first('app_id');
      if (!live.has(appId)) live.set(appId, (await liveEventsUrl(trx, appId)) !== null);
      if (!live.get(appId)) continue;
      await queueDelivery(trx, id);
      queued += 1;
    }
  });
  return queued;
}
