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
import { liveEventsUrlSql, queueDeliveries, RETRY_SCHEDULE_SECONDS } from './data-events.js';

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
 * The ends of attempts, in one statement: their delivery-log rows (issue #21) and their events' new states,
 * which no other attempt can have changed (the leases held them). A delivered or failed event is settled;
 * one to retry stays pending until its next attempt.
 */
const SETTLE = `WITH ended AS (
    SELECT * FROM unnest(CAST(? AS uuid[]), CAST(? AS timestamptz[]), CAST(? AS int[]), CAST(? AS int[]),
      CAST(? AS text[]), CAST(? AS text[]), CAST(? AS int[]), CAST(? AS text[]), CAST(? AS timestamptz[]))
      AS t(id, attempted_at, http_status, duration_ms, error, outcome, attempts, last_error, next_attempt_at)),
  logged AS (
    INSERT INTO arcade_data_event_attempts (event_id, attempted_at, http_status, duration_ms, error, outcome)
    SELECT id, attempted_at, http_status, duration_ms, error, outcome FROM ended)
  UPDATE arcade_data_events e
  SET status = CASE WHEN x.outcome = 'retrying' THEN 'pending' ELSE x.outcome END,
    attempts = x.attempts, last_error = x.last_error,
    delivered_at = CASE WHEN x.outcome = 'delivered' THEN now() ELSE e.delivered_at END,
    failed_at = CASE WHEN x.outcome = 'failed' THEN now() ELSE e.failed_at END,
    next_attempt_at = coalesce(x.next_attempt_at, e.next_attempt_at),
    leased_until = NULL, redelivery = false
  FROM ended x WHERE e.id = x.id AND e.status = 'pending'`;

/**
 * Why events could not be claimed, in one statement: gone, settled or leased by another job ('done'), or
 * waiting for an events URL ('held'; making a release with one live queues it again).
 */
const UNCLAIMED = `SELECT e.id, e.status, ${liveEventsUrlSql('e.app_id')} IS NOT NULL AS live
  FROM arcade_data_events e WHERE e.id = ANY(CAST(? AS uuid[]))`;

async function unclaimed(knex: Knex, ids: string[]): Promise<Map<string, DeliveryOutcome>> {
  const outcomes = new Map<string, DeliveryOutcome>(ids.map((id) => [id, 'done']));
  if (ids.length === 0) return outcomes;
  const { rows } = await knex.raw(UNCLAIMED, [ids]);
  for (const row of rows as Array<{ id: string; status: string; live: boolean }>) {
    if (row.status === 'pending' && !row.live) outcomes.set(row.id, 'held');
  }
  return outcomes;
}

interface Ended {
  event: EventRow;
  result: SendResult;
  attempts: number;
  outcome: 'delivered' | 'failed' | 'retrying';
  lastError: string | null;
  /** The wait before the next attempt, for an event to retry. */
  waitSeconds: number | null;
}

/** What an attempt came to: delivered (2xx), failed (410, the schedule's end, a redelivery) or retrying. */
function ending(event: EventRow, result: SendResult): Ended {
  const attempts = event.attempts + 1;
  if (result.status !== undefined && result.status >= 200 && result.status < 300) {
    return { event, result, attempts, outcome: 'delivered', lastError: null, waitSeconds: null };
  }
  const lastError = result.status !== undefined ? `status ${result.status}` : (result.error ?? 'unknown');
  if (result.status === 410 || attempts > RETRY_SCHEDULE_SECONDS.length || event.redelivery) {
    return { event, result, attempts, outcome: 'failed', lastError, waitSeconds: null };
  }
  return { event, result, attempts, outcome: 'retrying', lastError, waitSeconds: RETRY_SCHEDULE_SECONDS[attempts - 1] };
}

/** Writes the attempts' ends; the next attempts' jobs go in the same transaction as their events' rows. */
async function settle(knex: Knex, ended: Ended[]): Promise<void> {
  if (ended.length === 0) return;
  const now = Date.now();
  const values = [
    ended.map((end) => end.event.id),
    ended.map((end) => new Date(now - end.result.durationMs)),
    ended.map((end) => end.result.status ?? null),
    ended.map((end) => end.result.durationMs),
    ended.map((end) => (end.result.status !== undefined ? null : (end.result.error ?? 'unknown'))),
    ended.map((end) => end.outcome),
    ended.map((end) => end.attempts),
    ended.map((end) => end.lastError),
    ended.map((end) => (end.waitSeconds === null ? null : new Date(now + end.waitSeconds * 1000))),
  ] as unknown as Knex.Value[];
  const retries = ended.filter((end) => end.waitSeconds !== null);
  if (retries.length === 0) {
    await knex.raw(SETTLE, values);
    return;
  }
  await knex.transaction(async (trx) => {
    await trx.raw(SETTLE, values);
    await queueDeliveries(
      trx,
      retries.map((end) => ({ id: end.event.id, delaySeconds: end.waitSeconds! })),
    );
  });
}

/**
 * One attempt at each of the events `ids` (the delivery jobs a worker took together): their leases in one
 * statement, the signed POSTs side by side (each receiver's connections limit its own, pinned-client.ts),
 * and the ends of each receiver's attempts in one statement as soon as they are all in (with the retries'
 * jobs, in one transaction), so a slow receiver holds back only its own events: `onSettled` hears each
 * group's outcomes when they are written. An event not claimed is `done` (another job holds or settled
 * it) or `held`.
 */
export async function deliverDataEvents(
  knex: Knex,
  ids: string[],
  deps: DeliveryDeps,
  onSettled: (outcomes: Map<string, DeliveryOutcome>) => void = () => undefined,
): Promise<Map<string, DeliveryOutcome>> {
  const claimed = (await knex.raw(CLAIM, [LEASE_SECONDS, ids])).rows as Array<EventRow & { url: string }>;
  const claimedIds = new Set(claimed.map((event) => event.id));
  const outcomes = await unclaimed(
    knex,
    ids.filter((id) => !claimedIds.has(id)),
  );
  // Heard now: these were decided before any attempt.
  onSettled(outcomes);
  const byReceiver = new Map<string, Array<EventRow & { url: string }>>();
  for (const event of claimed) {
    const group = byReceiver.get(event.url);
    if (group) group.push(event);
    else byReceiver.set(event.url, [event]);
  }
  await Promise.all(
    [...byReceiver.values()].map(async (events) => {
      const ended = await Promise.all(
        events.map(async ({ url, ...event }) => ending(event, await attempt(url, event, deps, knex))),
      );
      await settle(knex, ended);
      const settled = new Map(ended.map((end) => [end.event.id, end.outcome] as const));
      for (const [id, outcome] of settled) outcomes.set(id, outcome);
      onSettled(settled);
    }),
  );
  return outcomes;
}

/** Pending events due for a while with no job to carry them (a worker died): queued again, held ones not. */
export async function sweepDataEvents(knex: Knex): Promise<number> {
  const due: Array<{ id: string }> = await knex('arcade_data_events as e')
    .where({ 'e.status': 'pending' })
    .where('e.next_attempt_at', '<', new Date(Date.now() - 60_000))
    .where((q) => q.whereNull('e.leased_until').orWhere('e.leased_until', '<', knex.fn.now()))
    .whereRaw(`${liveEventsUrlSql('e.app_id')} IS NOT NULL`)
    .orderBy('e.next_attempt_at')
    .limit(1000)
    .select('e.id');
  await knex.transaction((trx) => queueDeliveries(trx, due));
  return due.length;
}
