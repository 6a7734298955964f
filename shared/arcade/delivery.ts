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
      // A game's server takes many events: its connections stay open between them (each still checked).
      keepAlive: true,
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

/** How long an attempt holds its event: more than the guard's 10 s for the whole request. */
export const LEASE_SECONDS = 15;

/**
 * Takes the leases of the events among `ids` that are pending and not leased, and reads what their attempts
 * need, in one statement: each event and its game's live events URL (an event whose game has none is held,
 * and left unleased).
 */
const CLAIM = `WITH live AS (
    SELECT e.id, r.data_events_url AS url FROM arcade_data_events e
    JOIN arcade_apps a ON a.app_id = e.app_id AND a.status <> 'removed'
    JOIN arcade_releases r ON r.id = a.live_release_id
    WHERE e.id = ANY(CAST(? AS uuid[])) AND r.data_events_url IS NOT NULL)
  UPDATE arcade_data_events e SET leased_until = now() + make_interval(secs => ?)
  FROM live
  WHERE e.id = live.id AND e.status = 'pending' AND (e.leased_until IS NULL OR e.leased_until < now())
  RETURNING e.id, e.app_id, e.player_id, e.type, e.data, e.status, e.attempts, e.redelivery, live.url`;

/**
 * The ends of attempts that delivered or failed their events, in one statement: their delivery-log rows
 * (issue #21) and the events' new states, which no other attempt can have changed (the leases held them).
 */
const SETTLE = `WITH ended AS (
    SELECT * FROM unnest(CAST(? AS uuid[]), CAST(? AS timestamptz[]), CAST(? AS int[]), CAST(? AS int[]),
      CAST(? AS text[]), CAST(? AS text[]), CAST(? AS int[]), CAST(? AS text[]))
      AS t(id, attempted_at, http_status, duration_ms, error, outcome, attempts, last_error)),
  logged AS (
    INSERT INTO arcade_data_event_attempts (event_id, attempted_at, http_status, duration_ms, error, outcome)
    SELECT id, attempted_at, http_status, duration_ms, error, outcome FROM ended)
  UPDATE arcade_data_events e SET status = x.outcome, attempts = x.attempts, last_error = x.last_error,
    delivered_at = CASE WHEN x.outcome = 'delivered' THEN now() ELSE e.delivered_at END,
    failed_at = CASE WHEN x.outcome = 'failed' THEN now() ELSE e.failed_at END,
    leased_until = NULL, redelivery = false
  FROM ended x WHERE e.id = x.id AND e.status = 'pending'`;

/** The delivery log's row of one attempt, as SETTLE and the retry write it. */
function attemptRow(eventId: string, result: SendResult, outcome: 'delivered' | 'retrying' | 'failed') {
  return {
    event_id: eventId,
    attempted_at: new Date(Date.now() - result.durationMs),
    http_status: result.status ?? null,
    duration_ms: result.durationMs,
    error: result.status !== undefined ? null : (result.error ?? 'unknown'),
    outcome,
  };
}

/** Why an event could not be claimed: gone or settled, leased by another job ('done'), or held. */
async function unclaimed(knex: Knex, eventId: string): Promise<DeliveryOutcome> {
  const event = await knex('arcade_data_events').where({ id: eventId }).first('status', 'app_id');
  if (!event || event.status !== 'pending') return 'done';
  // Held: making a release with an events URL live queues it again.
  return (await liveEventsUrl(knex, event.app_id)) ? 'done' : 'held';
}

interface Ended {
  event: EventRow;
  result: SendResult;
  attempts: number;
  outcome: 'delivered' | 'failed' | 'retrying';
  lastError: string | null;
}

/** What an attempt came to: delivered (2xx), failed (410, the schedule's end, a redelivery) or retrying. */
function ending(event: EventRow, result: SendResult): Ended {
  const attempts = event.attempts + 1;
  if (result.status !== undefined && result.status >= 200 && result.status < 300) {
    return { event, result, attempts, outcome: 'delivered', lastError: null };
  }
  const lastError = result.status !== undefined ? `status ${result.status}` : (result.error ?? 'unknown');
  const final = result.status === 410 || attempts > RETRY_SCHEDULE_SECONDS.length || event.redelivery;
  return { event, result, attempts, outcome: final ? 'failed' : 'retrying', lastError };
}

async function settle(knex: Knex, ended: Ended[]): Promise<void> {
  if (ended.length === 0) return;
  const rows = ended.map(({ event, result, outcome }) => attemptRow(event.id, result, outcome));
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
  const columns = [
    column('event_id'),
    column('attempted_at'),
    column('http_status'),
    column('duration_ms'),
    column('error'),
    column('outcome'),
    ended.map((end) => end.attempts),
    ended.map((end) => end.lastError),
  ];
  await knex.raw(SETTLE, columns as unknown as Knex.Value[]);
}

/** The next attempt of an event that failed this one, on the retry schedule: logged, and its job sent. */
async function scheduleRetry(knex: Knex, { event, result, attempts, lastError }: Ended): Promise<void> {
  const wait = RETRY_SCHEDULE_SECONDS[attempts - 1];
  await knex.transaction(async (trx) => {
    await trx('arcade_data_event_attempts').insert(attemptRow(event.id, result, 'retrying'));
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
}

/**
 * One attempt at each of the events `ids` (the delivery jobs a worker took together): their leases in one
 * statement, the signed POSTs side by side (each receiver's connections limit its own, pinned-client.ts),
 * and the deliveries and failures settled in one statement; a retry is scheduled event by event. An event
 * not claimed is `done` (another job holds or settled it) or `held`.
 */
export async function deliverDataEvents(
  knex: Knex,
  ids: string[],
  deps: DeliveryDeps,
): Promise<Map<string, DeliveryOutcome>> {
  const claimed = (await knex.raw(CLAIM, [ids, LEASE_SECONDS])).rows as Array<EventRow & { url: string }>;
  const outcomes = new Map<string, DeliveryOutcome>();
  const sent = await Promise.all(
    claimed.map(async ({ url, ...event }) => ending(event, await attempt(url, event, deps, knex))),
  );
  await settle(
    knex,
    sent.filter((end) => end.outcome !== 'retrying'),
  );
  for (const end of sent) {
    if (end.outcome === 'retrying') await scheduleRetry(knex, end);
    outcomes.set(end.event.id, end.outcome);
  }
  for (const id of ids) if (!outcomes.has(id)) outcomes.set(id, await unclaimed(knex, id));
  return outcomes;
}

/** One attempt at one event (deliverDataEvents of one). */
export async function deliverDataEvent(knex: Knex, eventId: string, deps: DeliveryDeps): Promise<DeliveryOutcome> {
  return (await deliverDataEvents(knex, [eventId], deps)).get(eventId)!;
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
