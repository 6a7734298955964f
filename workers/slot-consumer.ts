// A consumer for a queue whose jobs take very different times: data events, where a good game server
// answers in milliseconds and a hanging one holds its attempt for the whole 10 s time-out. pg-boss's own
// workers fetch a batch, run it, and complete it (and fetch the next) only when its slowest job ends, so
// one hanging receiver in each of the 4 batches of 250 held every slot: a good receiver's events waited
// 10 s and more behind it (p95 from 131 ms to 9.4 s, the worker idle). Here the jobs in flight are slots:
// each job is completed on its own as soon as it ends, its slot frees at once, and the consumer fetches as
// many jobs as there are free slots. The jobs of one fetch start in the same turn, so a handler that gathers
// them (data-event.deliver's one claim statement) still sees them together.
import type PgBoss from 'pg-boss';
import type { Logger } from '../shared/platform/logger.js';

export interface SlotConsumerOptions {
  boss: PgBoss;
  queue: string;
  /** Jobs in flight at most. */
  slots: number;
  /** How often an idle consumer looks for jobs when no wake-up arrives. */
  pollingMs: number;
  /** Runs one job; what it answers is the job's output, what it throws fails it (pg-boss retries). */
  run(job: PgBoss.JobWithMetadata<unknown>): Promise<unknown>;
  log: Logger;
}

/**
 * With a backlog, the consumer fetches again once this share of its slots is free, or REFILL_MS after it
 * last did: a backlog is fetched (and claimed) in groups, not one job a statement as each slot frees. A
 * drained queue is fetched at once on a send's wake-up, so this pacing never delays a new job.
 */
const REFILL_SHARE = 4;
const REFILL_MS = 250;

/** A job that ended: its output, or what it threw (`failed`). */
type Ended = { id: string; failed: false; output: unknown } | { id: string; failed: true; error: unknown };

export class SlotConsumer {
  private readonly inFlight = new Set<string>();
  private stopping = false;
  private loop: Promise<void> | null = null;
  /** The pause in progress: ended by its timer, when `ready()` holds after a job ends, or (idle) a wake-up. */
  private pause: { ready(): boolean; end(): void; idle: boolean } | null = null;
  private ended: Ended[] = [];
  private writing: Promise<void> | null = null;
  private readonly idle: Array<() => void> = [];

  constructor(private readonly options: SlotConsumerOptions) {}

  start(): void {
    this.loop ??= this.fetchLoop();
  }

  /** A job was sent to the queue (its NOTIFY): look now rather than at the next poll. */
  notify(): void {
    // While a backlog is worked through, the new job queues behind it anyway.
    if (this.pause?.idle && this.free() > 0) this.pause.end();
  }

  /**
   * Stops fetching and waits up to `timeoutMs` for the jobs in flight to end and be completed. Jobs still
   * running then are failed, so pg-boss hands them to another worker after their retry delay (an event's
   * lease keeps a second attempt from starting while the first may still be in the air).
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.pause?.end();
    await this.loop;
    if (this.inFlight.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await this.flush();
    const left = [...this.inFlight];
    this.inFlight.clear();
    if (left.length > 0) {
      await this.options.boss.fail(this.options.queue, left).catch((error: unknown) => {
        this.options.log.warn({ err: error, queue: this.options.queue }, 'could not fail the jobs left running');
      });
    }
  }

  private free(): number {
    return this.options.slots - this.inFlight.size;
  }

  private async fetchLoop(): Promise<void> {
    const { boss, queue, slots, pollingMs, log } = this.options;
    const refillAt = Math.max(1, Math.floor(slots / REFILL_SHARE));
    while (!this.stopping) {
      const free = this.free();
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await boss.fetch<unknown>(queue, { batchSize: free, includeMetadata: true });
          fetched = jobs.length;
          for (const job of jobs) this.begin(job);
        } catch (error) {
          log.warn({ err: error, queue }, 'could not fetch jobs');
        }
      }
      if (this.stopping) break;
      if (free === 0 || (fetched > 0 && fetched === free)) {
        // More may be waiting: fetch again when a group of slots is free, or REFILL_MS on with any free.
        await this.wait(REFILL_MS, () => this.free() >= refillAt, false);
        if (this.free() === 0) await this.wait(pollingMs, () => this.free() > 0, false);
      } else {
        // Drained: a send's wake-up (notify) or the polling interval, which also finds delayed jobs due.
        await this.wait(pollingMs, () => false, true);
      }
    }
  }

  private wait(ms: number, ready: () => boolean, idle: boolean): Promise<void> {
    if (this.stopping || ready()) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        if (this.pause === pause) this.pause = null;
        resolve();
      };
      const timer = setTimeout(end, ms);
      const pause = { ready, end, idle };
      this.pause = pause;
    });
  }

  private begin(job: PgBoss.JobWithMetadata<unknown>): void {
    this.inFlight.add(job.id);
    // Called in this turn for every job of the fetch (run's synchronous part starts the handler).
    this.options.run(job).then(
      (output) => this.end({ id: job.id, failed: false, output }),
      (error: unknown) => this.end({ id: job.id, failed: true, error }),
    );
  }

  private end(ended: Ended): void {
    if (!this.inFlight.delete(ended.id)) return;
    this.ended.push(ended);
    if (!this.writing) this.writing = this.writeEnds();
    if (this.pause?.ready()) this.pause.end();
    if (this.inFlight.size === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /**
   * Completes (or fails) the jobs that ended, in as few statements as their outputs allow: the ends of
   * one turn are written together, and those that end while a write runs go in the next.
   */
  private async writeEnds(): Promise<void> {
    const { boss, queue, log } = this.options;
    await new Promise((resolve) => setImmediate(resolve));
    while (this.ended.length > 0) {
      const group = this.ended.splice(0);
      const completed = new Map<string, { output: unknown; ids: string[] }>();
      const failed = new Map<unknown, string[]>();
      for (const ended of group) {
        if (ended.failed) {
          const ids = failed.get(ended.error);
          if (ids) ids.push(ended.id);
          else failed.set(ended.error, [ended.id]);
        } else {
          const key = JSON.stringify(ended.output ?? null);
          const same = completed.get(key) ?? { output: ended.output, ids: [] };
          same.ids.push(ended.id);
          completed.set(key, same);
        }
      }
      const writes: Array<Promise<unknown>> = [];
      for (const { output, ids } of completed.values()) {
        // pg-boss takes one output for many ids (its types name only the single-id form).
        const complete = boss.complete.bind(boss) as (name: string, ids: string[], data?: unknown) => Promise<void>;
        writes.push(complete(queue, ids, output === undefined ? undefined : asObject(output)));
      }
      for (const [error, ids] of failed) {
        const fail = boss.fail.bind(boss) as (name: string, ids: string[], data?: unknown) => Promise<void>;
        writes.push(fail(queue, ids, error));
      }
      for (const outcome of await Promise.allSettled(writes)) {
        // A job left active is expired by pg-boss and retried: at least once, never lost.
        if (outcome.status === 'rejected') log.warn({ err: outcome.reason, queue }, 'could not complete jobs');
      }
    }
    this.writing = null;
  }

  private async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }
}

/** pg-boss stores an object as the job's output; anything else is wrapped as it would wrap it. */
function asObject(output: unknown): object | null {
  if (output === null) return null;
  return typeof output === 'object' && !Array.isArray(output) ? output : { value: output };
}
