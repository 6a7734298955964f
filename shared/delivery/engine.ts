// The delivery of signed events, whatever sends them (data events to game servers, events for integrations):
// one attempt at each event a worker's jobs name, on the retry schedule of DECISIONS. 2xx delivers; 410
// fails at once; anything else (another status, a time-out, a refused address) schedules the next attempt,
// then fails. The event's row changes only after the attempt, so a worker that dies in the middle leaves it
// pending, leased for 15 s, for the next job or the sweeper: delivery is at least once, and a receiver drops
// repeats by `webhook-id`. Each attempt leaves a row in the target's attempts table (its delivery log); an
// event sent again on request (`redelivery`) gets that one attempt, which delivers or fails it.
//
// An attempt never outlives its lease: its one deadline (the 10 s time-out, covering the wait for a
// connection, connect, TLS, headers and body) is cut shorter if the lease would end first, with time left
// to write its end. Each attempt's end is written as soon as it comes in, with whatever other ends came in
// meanwhile (one statement for all of them), and its job hears its outcome then: a receiver that hangs
// holds back its own events only. And it holds only a few of the consumer's slots: a receiver has a limit of
// attempts in flight (receiver-load.ts), and an event beyond it is deferred (its job sent again a little
// later, no attempt counted) instead of waiting in a slot for the receiver's time-outs.
import type { Knex } from 'knex';
import { sendJobs, type QueueName } from '../platform/jobs/queue.js';
import { admission, attemptEnded } from './receiver-load.js';
import { sendSignedEvent, type DeliveryDeps, type EventClaims, type SendResult } from './signed-post.js';

/** DECISIONS: waits after each failed attempt, then the event fails. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

export type DeliveryOutcome = 'delivered' | 'failed' | 'retrying' | 'deferred' | 'held' | 'done';

/** An event as its claim read it: what every target's rows have, and where it goes. */
export interface ClaimedEvent {
  id: string;
  attempts: number;
  /** Sent again on request: this attempt decides it, with no retry schedule. */
  redelivery: boolean;
  url: string;
}

/** Where one kind of signed event lives, and how its rows are claimed and settled. */
export interface DeliveryTarget<E extends ClaimedEvent> {
  /** The events' table and their attempts' table (the same columns for every target). */
  table: string;
  attemptsTable: string;
  /** The queue whose jobs carry one event id each (retries are sent to it). */
  queue: QueueName;
  /** The tokens' `typ` header. */
  typ: string;
  /**
   * Takes the leases of the events among `ids` that are pending, not leased and have somewhere to go, and
   * reads what their attempts need, in one statement.
   */
  claim(knex: Knex, ids: string[], leaseSeconds: number): Promise<E[]>;
  /** Why events could not be claimed: gone, settled or leased by another job ('done'), or 'held'. */
  unclaimed(knex: Knex, ids: string[]): Promise<Map<string, DeliveryOutcome>>;
  /** Readies claimed events before they are sent (events for integrations render their data). */
  prepare?(knex: Knex, events: E[]): Promise<void>;
  claims(event: E): EventClaims;
  /** Runs with the ends' statement, in its transaction (a subscription's state follows its attempts). */
  settled?(trx: Knex.Transaction, ended: Array<Ended<E>>): Promise<void>;
}

/** How long an attempt holds its event: more than the guard's 10 s for the whole request. */
export const LEASE_SECONDS = 15;

/**
 * An attempt ends this long before its lease at the latest, leaving the time to write its end: past the
 * lease, the sweeper or a retried job may send the event again while this attempt is still in the air.
 */
const SETTLE_MARGIN_MS = 3000;

export interface Ended<E extends ClaimedEvent> {
  event: E;
  result: SendResult;
  attempts: number;
  /** `deferred`: not attempted, its receiver at its limit (receiver-load.ts); sent again, no attempt counted. */
  outcome: 'delivered' | 'failed' | 'retrying' | 'deferred';
  lastError: string | null;
  /** The wait before the next attempt, for an event to retry or deferred. */
  waitSeconds: number | null;
}

/** What an attempt came to: delivered (2xx), failed (410, the schedule's end, a redelivery) or retrying. */
function ending<E extends ClaimedEvent>(event: E, result: SendResult): Ended<E> {
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

/** An event not attempted because its receiver is at its limit: its job comes back `seconds` later. */
function deferral<E extends ClaimedEvent>(event: E, seconds: number): Ended<E> {
  const result: SendResult = { durationMs: 0 };
  return { event, result, attempts: event.attempts, outcome: 'deferred', lastError: null, waitSeconds: seconds };
}

/**
 * The ends of attempts, in one statement: their delivery-log rows and their events' new states, which no
 * other attempt can have changed (the leases held them); an event deleted meanwhile is passed over. A delivered or failed event is settled; one to
 * retry stays pending until its next attempt; a deferred one (no attempt made, nothing logged) keeps its
 * attempts, last error and redelivery, its lease released.
 */
const settleSql = (table: string, attemptsTable: string) => `WITH ended AS (
    SELECT * FROM unnest(CAST(? AS uuid[]), CAST(? AS timestamptz[]), CAST(? AS int[]), CAST(? AS int[]),
      CAST(? AS text[]), CAST(? AS text[]), CAST(? AS int[]), CAST(? AS text[]), CAST(? AS timestamptz[]))
      AS t(id, attempted_at, http_status, duration_ms, error, outcome, attempts, last_error, next_attempt_at)),
  -- An event deleted while its attempt was in the air (its subscription ended, its app or account gone)
  -- has no log to write to. (Not a lock on the rows here: the UPDATE below changes them in this same
  -- statement, and a row this statement updated is passed over by its own lock.)
  logged AS (
    INSERT INTO ${attemptsTable} (event_id, attempted_at, http_status, duration_ms, error, outcome)
    SELECT x.id, x.attempted_at, x.http_status, x.duration_ms, x.error, x.outcome FROM ended x
    WHERE x.outcome <> 'deferred' AND EXISTS (SELECT 1 FROM ${table} e WHERE e.id = x.id))
  UPDATE ${table} e
  SET status = CASE WHEN x.outcome IN ('retrying', 'deferred') THEN 'pending' ELSE x.outcome END,
    attempts = x.attempts, last_error = CASE WHEN x.outcome = 'deferred' THEN e.last_error ELSE x.last_error END,
    delivered_at = CASE WHEN x.outcome = 'delivered' THEN now() ELSE e.delivered_at END,
    failed_at = CASE WHEN x.outcome = 'failed' THEN now() ELSE e.failed_at END,
    next_attempt_at = coalesce(x.next_attempt_at, e.next_attempt_at),
    leased_until = NULL, redelivery = x.outcome = 'deferred' AND e.redelivery
  FROM ended x WHERE e.id = x.id AND e.status = 'pending'`;

/** Sends the delivery jobs of many events in one statement, each after its own delay (none by default). */
export async function queueDeliveries(
  trx: Knex.Transaction,
  queue: QueueName,
  events: Array<{ id: string; delaySeconds?: number }>,
): Promise<void> {
  await sendJobs(
    trx,
    queue,
    events.map(({ id, delaySeconds }) => ({ payload: { event_id: id }, delaySeconds })),
  );
}

/** Writes the attempts' ends; the next attempts' jobs go in the same transaction as their events' rows. */
async function settle<E extends ClaimedEvent>(knex: Knex, target: DeliveryTarget<E>, ended: Array<Ended<E>>) {
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
  const sql = settleSql(target.table, target.attemptsTable);
  if (retries.length === 0 && !target.settled) {
    await knex.raw(sql, values);
    return;
  }
  await knex.transaction(async (trx) => {
    await trx.raw(sql, values);
    await queueDeliveries(
      trx,
      target.queue,
      retries.map((end) => ({ id: end.event.id, delaySeconds: end.waitSeconds! })),
    );
    const attempted = ended.filter((end) => end.outcome !== 'deferred');
    if (attempted.length > 0) await target.settled?.(trx, attempted);
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
class EndWriter<E extends ClaimedEvent> {
  private queued: Array<{ end: Ended<E>; at: number; resolve(): void; reject(error: unknown): void }> = [];
  /** Attempts started whose end has not come in yet. */
  private inTheAir = 0;
  private writing = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly knex: Knex,
    private readonly target: DeliveryTarget<E>,
  ) {}

  started(attempts: number): void {
    this.inTheAir += attempts;
  }

  /** An attempt that ended with no end to write (it threw). */
  dropped(): void {
    this.inTheAir -= 1;
    this.next();
  }

  write(end: Ended<E>): Promise<void> {
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
        this.target,
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

const writers = new WeakMap<Knex, Map<string, EndWriter<ClaimedEvent>>>();

function endWriter<E extends ClaimedEvent>(knex: Knex, target: DeliveryTarget<E>): EndWriter<E> {
  let byTarget = writers.get(knex);
  if (!byTarget) writers.set(knex, (byTarget = new Map()));
  let writer = byTarget.get(target.table);
  if (!writer) byTarget.set(target.table, (writer = new EndWriter(knex, target) as unknown as EndWriter<ClaimedEvent>));
  return writer as unknown as EndWriter<E>;
}

/**
 * One attempt at each of the events `ids` (the delivery jobs a worker took together): their leases in one
 * statement, the signed POSTs side by side (each receiver's connections limit its own, pinned-client.ts,
 * and its attempts in flight, receiver-load.ts: beyond them an event is `deferred`),
 * and each attempt's end written as soon as it is in (EndWriter; with its retry's job, in one transaction),
 * so a slow receiver holds back only its own events: `onSettled` hears outcomes as they are written, and
 * `onFailed` an event whose attempt or write failed (the database gone; its job fails and pg-boss retries
 * it once the lease is over). Without `onFailed`, such a failure is thrown once every attempt has ended. An
 * event not claimed is `done` (another job holds or settled it) or `held`.
 */
export async function deliverEvents<E extends ClaimedEvent>(
  target: DeliveryTarget<E>,
  knex: Knex,
  ids: string[],
  deps: DeliveryDeps,
  onSettled: (outcomes: Map<string, DeliveryOutcome>) => void = () => undefined,
  onFailed?: (eventId: string, error: unknown) => void,
): Promise<Map<string, DeliveryOutcome>> {
  // Taken before the lease is: the lease ends no sooner than this plus LEASE_SECONDS (on the database's
  // clock, but only the length counts).
  const claimedAt = Date.now();
  const claimed = await target.claim(knex, ids, LEASE_SECONDS);
  const until = claimedAt + LEASE_SECONDS * 1000 - SETTLE_MARGIN_MS;
  const claimedIds = new Set(claimed.map((event) => event.id));
  const outcomes = await target.unclaimed(
    knex,
    ids.filter((id) => !claimedIds.has(id)),
  );
  // Heard now: these were decided before any attempt.
  onSettled(outcomes);
  if (claimed.length > 0) await target.prepare?.(knex, claimed);
  const writer = endWriter(knex, target);
  writer.started(claimed.length);
  const failures: unknown[] = [];
  await Promise.all(
    claimed.map(async (event) => {
      try {
        let end: Ended<E>;
        try {
          const deferBy = await admission(event.url);
          if (deferBy === 0) {
            let result: SendResult | undefined;
            try {
              result = await sendSignedEvent(knex, event.url, target.claims(event), deps, target.typ, until);
            } finally {
              attemptEnded(event.url, result !== undefined && result.error !== 'timeout');
            }
            end = ending(event, result);
          } else end = deferral(event, deferBy);
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
