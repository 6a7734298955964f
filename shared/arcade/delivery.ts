// One delivery attempt of a data event (DECISIONS: Arcade, data events): a JWT signed like identity
// tokens (header typ `data-event+jwt`), POSTed as `application/jwt` with `webhook-id` through the outbound
// guard. 2xx delivers; 410 fails at once; anything else (another status, a time-out, a refused address)
// schedules the next attempt on the retry schedule, then fails. The row changes only after the attempt, so
// a worker that dies in the middle leaves the event pending, leased for 15 s, for the next job or the
// sweeper. Delivery is at least once: a receiver drops repeats by `webhook-id`. Each attempt leaves a row
// in arcade_data_event_attempts (the developer's delivery log); an event its developer sent again
// (`redelivery`) gets that one attempt, which delivers or fails it.
//
// An attempt never outlives its lease: its one deadline (the 10 s time-out, covering the wait for a
// connection, connect, TLS, headers and body) is cut shorter if the lease would end first, with time left
// to write its end. Each attempt's end is written as soon as it comes in, with whatever other ends came in
// meanwhile (one statement for all of them), and its job hears its outcome then: a receiver that hangs
// holds back its own events only.
import type { Knex } from 'knex';
import { DEFAULT_TIMEOUT_MS, guardedFetch } from '../platform/net/guarded-fetch.js';
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
  /** When the attempt must be over at the latest (this process's clock): its lease's end. */
  until = Infinity,
): Promise<SendResult> {
  const token = await signToken(knex, deps.secret, { iss: deps.issuer, ...claims }, { typ: 'data-event+jwt' });
  const started = Date.now();
  const timeoutMs = Math.min(deps.timeoutMs ?? DEFAULT_TIMEOUT_MS, until - started);
  // The lease ran out before the attempt could start (signing waited on the database): nothing was sent,
  // and the event is tried again like after a time-out.
  if (timeoutMs <= 0) return { error: 'timeout', durationMs: 0 };
  try {
    const response = await guardedFetch(url, {
      // A game's server takes many events: its connections stay open between them (each still checked).
      keepAlive: true,
      method: 'POST',
      headers: { 'content-type': 'application/jwt', 'webhook-id': claims.jti },
      body: token,
      followRedirects: false,
      maxBytes: 64 * 1024,
      timeoutMs,
    });
    return { status: response.status, durationMs: Date.now() - started };
  } catch (error) {
    if (isOutboundRefused(error)) return { error: error.reason, durationMs: Date.now() - started };
    throw error;
  }
}

function attempt(url: string, event: EventRow, deps: DeliveryDeps, knex: Knex, until: number): Promise<SendResult> {
  return sendSignedEvent(
    knex,
    url,
    { aud: event.app_id, jti: event.id, type: event.type, sub: event.player_id, data: event.data },
    deps,
    until,
  );
}

/** How long an attempt holds its event: more than the guard's 10 s for the whole request. */
export const LEASE_SECONDS = 15;

/**
 * An attempt ends this long before its lease at the latest, leaving the time to write its end: past the
 * lease, the sweeper or a retried job may send the event again while this attempt is still in the air.
 */
const SETTLE_MARGIN_MS = 3000;

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

/** Ends written in one statement at most (a statement's arrays stay small enough to plan and send quickly). */
const MOST_ENDS_A_WRITE = 1000;
/**
 * How long an end may wait for others to join its statement while more attempts are in the air. Written
 * one by one, a backlog's ends took a statement (and a commit) for every 4 events; an event's job ends at
 * most this much later.
 */
const GATHER_MS = 50;

/**
 * Writes attempts' ends as they come in, group-commit style, one statement at a time: the ends that come
 * in while a statement runs, or within GATHER_MS of the first of them while other attempts are still in
 * the air, go together in the next. An end with no other attempt in the air is written at once.
 */
class EndWriter {
  private queued: Array<{ end: Ended; at: number; resolve(): void; reject(error: unknown): void }> = [];
  /** Attempts started whose end has not come in yet. */
  private inTheAir = 0;
  private writing = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly knex: Knex) {}

  started(attempts: number): void {
    this.inTheAir += attempts;
  }

  /** An attempt that ended with no end to write (it threw). */
  dropped(): void {
    this.inTheAir -= 1;
    this.next();
  }

  write(end: Ended): Promise<void> {
    this.inTheAir -= 1;
    return new Promise((resolve, reject) => {
      this.queued.push({ end, at: Date.now(), resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.writing || this.queued.length === 0) return;
    const waited = Date.now() - this.queued[0].at;
    if (this.inTheAir > 0 && this.queued.length < MOST_ENDS_A_WRITE && waited < GATHER_MS) {
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.next();
      }, GATHER_MS - waited);
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = true;
    // The ends of this turn join the statement (attempts answered by one read of the socket end together).
    setImmediate(() => {
      const group = this.queued.splice(0, MOST_ENDS_A_WRITE);
      settle(
        this.knex,
        group.map((item) => item.end),
      )
        .then(
          () => group.forEach((item) => item.resolve()),
          (error: unknown) => group.forEach((item) => item.reject(error)),
        )
        .finally(() => {
          this.writing = false;
          this.next();
        });
    });
  }
}

const writers = new WeakMap<Knex, EndWriter>();

function endWriter(knex: Knex): EndWriter {
  let writer = writers.get(knex);
  if (!writer) writers.set(knex, (writer = new EndWriter(knex)));
  return writer;
}

/**
 * One attempt at each of the events `ids` (the delivery jobs a worker took together): their leases in one
 * statement, the signed POSTs side by side (each receiver's connections limit its own, pinned-client.ts),
 * and each attempt's end written as soon as it is in (EndWriter; with its retry's job, in one transaction),
 * so a slow receiver holds back only its own events: `onSettled` hears outcomes as they are written, and
 * `onFailed` an event whose attempt or write failed (the database gone; its job fails and pg-boss retries
 * it once the lease is over). Without `onFailed`, such a failure is thrown once every attempt has ended. An
 * event not claimed is `done` (another job holds or settled it) or `held`.
 */
export async function deliverDataEvents(
  knex: Knex,
  ids: string[],
  deps: DeliveryDeps,
  onSettled: (outcomes: Map<string, DeliveryOutcome>) => void = () => undefined,
  onFailed?: (eventId: string, error: unknown) => void,
): Promise<Map<string, DeliveryOutcome>> {
  // Taken before the lease is: the lease ends no sooner than this plus LEASE_SECONDS (on the database's
  // clock, but only the length counts).
  const claimedAt = Date.now();
  const claimed = (await knex.raw(CLAIM, [LEASE_SECONDS, ids])).rows as Array<EventRow & { url: string }>;
  const until = claimedAt + LEASE_SECONDS * 1000 - SETTLE_MARGIN_MS;
  const claimedIds = new Set(claimed.map((event) => event.id));
  const outcomes = await unclaimed(
    knex,
    ids.filter((id) => !claimedIds.has(id)),
  );
  // Heard now: these were decided before any attempt.
  onSettled(outcomes);
  const writer = endWriter(knex);
  writer.started(claimed.length);
  const failures: unknown[] = [];
  await Promise.all(
    claimed.map(async ({ url, ...event }) => {
      try {
        let end: Ended;
        try {
          end = ending(event, await attempt(url, event, deps, knex, until));
        } catch (error) {
          writer.dropped();
          throw error;
        }
        await writer.write(end);
        outcomes.set(event.id, end.outcome);
        onSettled(new Map([[event.id, end.outcome]]));
      } catch (error) {
        if (onFailed) onFailed(event.id, error);
        else failures.push(error);
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
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
