// One delivery attempt of a data event (DECISIONS: Arcade, data events): a JWT signed like identity
// tokens (header typ `data-event+jwt`), POSTed as `application/jwt` with `webhook-id` through the outbound
// guard. 2xx delivers; 410 fails at once; anything else (another status, a time-out, a refused address)
// schedules the next attempt on the retry schedule, then fails. The row changes only after the attempt, so
// a worker that dies in the middle leaves the event pending, leased for 15 s, for the next job or the
// sweeper. Delivery is at least once: a receiver drops repeats by `webhook-id`. Each attempt leaves a row
// in arcade_data_event_attempts (the developer's delivery log); an event its developer sent again
// (`redelivery`) gets that one attempt, which delivers or fails it.
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
  /** Sent again by its developer: this attempt decides it, with no retry schedule. */
  redelivery: boolean;
}

/** What one POST of a signed token came to: the receiver's status, or the guard's refusal. */
export interface SendResult {
  status?: number;
  error?: string;
  durationMs: number;
}

/**
 * Signs `claims` (header typ `data-event+jwt`) and POSTs the token to `url` through the outbound guard with
 * `webhook-id` = `jti`: the one way a data event, a redelivery or a ping leaves the service.
 */
export async function sendSignedEvent(
  knex: Knex,
  url: string,
  claims: { aud: string; jti: string; type: string; sub?: string; data: Record<string, unknown> },
  deps: DeliveryDeps,
): Promise<SendResult> {
  const token = await signToken(knex, deps.secret, { iss: deps.issuer, ...claims }, { typ: 'data-event+jwt' });
  const started = Date.now();
  try {
    const response = await guardedFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/jwt', 'webhook-id': claims.jti },
      body: token,
      followRedirects: false,
      maxBytes: 64 * 1024,
      timeoutMs: deps.timeoutMs,
    });
    return { status: response.status, durationMs: Date.now() - started };
  } catch (error) {
    if (isOutboundRefused(error)) return { error: error.reason, durationMs: Date.now() - started };
    throw error;
  }
}

function attempt(url: string, event: EventRow, deps: DeliveryDeps, knex: Knex): Promise<SendResult> {
  return sendSignedEvent(
    knex,
    url,
    { aud: event.app_id, jti: event.id, type: event.type, sub: event.player_id, data: event.data },
    deps,
  );
}

/** The delivery log's row of one attempt (issue #21), written as the attempt ends. */
async function logAttempt(
  knex: Knex | Knex.Transaction,
  eventId: string,
  result: SendResult,
  outcome: 'delivered' | 'retrying' | 'failed',
): Promise<void> {
  await knex('arcade_data_event_attempts').insert({
    event_id: eventId,
    attempted_at: new Date(Date.now() - result.durationMs),
    http_status: result.status ?? null,
    duration_ms: result.durationMs,
    error: result.status !== undefined ? null : (result.error ?? 'unknown'),
    outcome,
  });
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
    await knex.transaction(async (trx) => {
      await logAttempt(trx, event.id, result, 'delivered');
      await trx('arcade_data_events').where({ id: event.id, status: 'pending' }).update({
        status: 'delivered',
        attempts,
        delivered_at: trx.fn.now(),
        last_error: null,
        leased_until: null,
        redelivery: false,
      });
    });
    return 'delivered';
  }
  const lastError = result.status !== undefined ? `status ${result.status}` : (result.error ?? 'unknown');
  if (result.status === 410 || attempts > RETRY_SCHEDULE_SECONDS.length || event.redelivery) {
    await knex.transaction(async (trx) => {
      await logAttempt(trx, event.id, result, 'failed');
      await trx('arcade_data_events').where({ id: event.id, status: 'pending' }).update({
        status: 'failed',
        attempts,
        failed_at: trx.fn.now(),
        last_error: lastError,
        leased_until: null,
        redelivery: false,
      });
    });
    return 'failed';
  }
  const wait = RETRY_SCHEDULE_SECONDS[attempts - 1];
  await knex.transaction(async (trx) => {
    await logAttempt(trx, event.id, result, 'retrying');
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
