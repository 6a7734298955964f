// For routes that must answer with a job's result (uploads, URL checks): send the job, wake a worker, and
// wait a bounded time for the worker's reply, which arrives by NOTIFY (with a slow poll as a safety net
// for a missed notification). A wait that runs out cancels the job, so nothing runs after the route has
// already answered.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  currentRequestTransaction,
  outsideRequestTransaction,
  type HandOver,
  type RequestTransaction,
} from '../db/request-transaction.js';
import { rateLimited } from '../errors.js';
import type { Logger } from '../logger.js';
import { boss } from './boss.js';
import { JOB_DONE, JOBS_SENT, type Signals } from './signals.js';

export class JobTimeoutError extends Error {
  constructor(
    readonly queue: string,
    readonly jobId: string,
    readonly waitedMs: number,
  ) {
    super(`job ${queue}/${jobId} gave no answer within ${waitedMs} ms`);
    this.name = 'JobTimeoutError';
  }
}

export class JobFailedError extends Error {
  constructor(
    readonly queue: string,
    readonly jobId: string,
    readonly detail: string,
  ) {
    super(`job ${queue}/${jobId} failed: ${detail}`);
    this.name = 'JobFailedError';
  }
}

/** What the worker sends on JOB_DONE; a result too large for a NOTIFY is read back from the job. */
export interface JobReply {
  id: string;
  ok: boolean;
  result?: unknown;
  error?: string;
  large?: boolean;
}

/** NOTIFY payloads are limited to 8000 bytes. */
const MAX_INLINE_REPLY = 7000;
const SAFETY_POLL_MS = 1000;

export function encodeReply(reply: JobReply): string {
  const text = JSON.stringify(reply);
  if (Buffer.byteLength(text) <= MAX_INLINE_REPLY) return text;
  return JSON.stringify({ id: reply.id, ok: reply.ok, large: true });
}

interface Waiter {
  onReply(reply: JobReply): void;
}

export interface RequestOptions {
  timeoutMs: number;
  /** Refuse with 429 `busy` when this many jobs already wait in the queue. */
  busyAt?: number;
}

/** One per process: routes the replies that arrive on the signal connection to their waiters. */
export class JobReplies {
  private readonly waiters = new Map<string, Waiter>();
  private started: Promise<void> | null = null;

  constructor(
    /** The process's LISTEN connection, also lent to other listeners (Arcade's play streams). */
    readonly signals: Signals,
    private readonly knex: Knex,
    private readonly log: Logger,
  ) {}

  private start(): Promise<void> {
    this.started ??= this.signals.listen(JOB_DONE, (payload) => this.deliver(payload));
    return this.started;
  }

  private deliver(payload: string): void {
    let reply: JobReply;
    try {
      reply = JSON.parse(payload) as JobReply;
    } catch {
      this.log.warn({ payload }, 'unreadable job reply');
      return;
    }
    this.waiters.get(reply.id)?.onReply(reply);
  }

  /** Starts listening (once) and refuses with 429 `busy` when the queue is full. */
  private async ready(queue: string, options: RequestOptions): Promise<void> {
    await this.start();
    if (options.busyAt !== undefined && (await boss().getQueueSize(queue)) >= options.busyAt) {
      throw rateLimited(5, 'busy');
    }
  }

  /** Sends a job and waits for its result; throws JobTimeoutError or JobFailedError. */
  async request<T>(queue: string, data: object, options: RequestOptions): Promise<T> {
    await this.ready(queue, options);
    const id = randomUUID();
    const answer = this.wait<T>(queue, id, options.timeoutMs);
    try {
      await boss().send(queue, data, { id });
      // pg-boss commits the job on a connection of its own; the wake-up goes outside the request's own
      // transaction too (autocommitted on a connection of knex's pool), or it would be held back until the
      // request ends.
      await outsideRequestTransaction(() => this.knex.raw('SELECT pg_notify(?, ?)', [JOBS_SENT, queue]));
    } catch (error) {
      this.forget(id);
      answer.catch(() => undefined);
      throw error;
    }
    return answer;
  }

  /**
   * Like `request`, but the job is sent by `send` inside a transaction of the caller's (with rows the job
   * will read): the wait starts before the commit, so no reply can slip past, and a rollback leaves no job.
   */
  async requestInTransaction<T>(
    queue: string,
    options: RequestOptions,
    send: (trx: Knex.Transaction, jobId: string) => Promise<unknown>,
  ): Promise<T> {
    const unit = currentRequestTransaction(this.knex);
    if (unit?.resumeFrom && !unit.resumed && unit.resumeFrom.queue === queue) return this.takeUp<T>(unit, options);
    await this.ready(queue, options);
    const id = randomUUID();
    const answer = this.wait<T>(queue, id, options.timeoutMs);
    const early = !!unit?.open;
    try {
      // Within a request's own transaction (a request with an Idempotency-Key), the worker must see the
      // job before the wait: what the request did so far commits with it, and the wait runs outside any
      // transaction (db/request-transaction.ts).
      if (early) await unit!.commitEarly((trx) => send(trx, id), { queue, jobId: id });
      else await this.knex.transaction((trx) => send(trx, id));
    } catch (error) {
      this.forget(id);
      answer.catch(() => undefined);
      throw error;
    }
    if (!early) return answer;
    try {
      return await answer;
    } finally {
      await unit!.reopen();
    }
  }

  /**
   * A repeat of a request whose first run handed a job over and then died: instead of a second job, the
   * answer of the first run's (over by now: idempotency-keys.ts), and what this run did up to here is
   * dropped, since the first run's commit holds the same.
   */
  private async takeUp<T>(unit: RequestTransaction, options: RequestOptions): Promise<T> {
    const job = unit.resumeFrom!;
    await this.start();
    await unit.abandon();
    try {
      return await this.wait<T>(job.queue, job.jobId, options.timeoutMs, { readNow: true });
    } finally {
      await unit.reopen();
    }
  }

  /** Whether a job sent for a route is still to run or running, or over (or gone). */
  async progress(job: HandOver): Promise<'pending' | 'over'> {
    const found = await boss().getJobById(job.queue, job.jobId, { includeArchive: true });
    return found && ['created', 'retry', 'active'].includes(found.state) ? 'pending' : 'over';
  }

  /** Stops waiting for a job that was never sent. */
  private forget(id: string): void {
    this.waiters.get(id)?.onReply({ id, ok: false, error: 'not sent' });
  }

  private wait<T>(queue: string, id: string, timeoutMs: number, how: { readNow?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearInterval(poll);
        this.waiters.delete(id);
        outcome();
      };
      const fromJobRow = async () => {
        // A job finished over 12 hours ago is in pg-boss's archive, and a key lives 24: read it there too.
        const job = await boss().getJobById<object>(queue, id, { includeArchive: true });
        if (job?.state === 'completed') finish(() => resolve(job.output as T));
        else if (job?.state === 'failed' || job?.state === 'cancelled') {
          finish(() => reject(new JobFailedError(queue, id, describeOutput(job.output))));
        }
      };
      const onReply = (reply: JobReply) => {
        if (!reply.ok) finish(() => reject(new JobFailedError(queue, id, reply.error ?? 'failed')));
        else if (!reply.large) finish(() => resolve(reply.result as T));
        else void pollUntilStored();
      };
      // pg-boss stores a large result just after the handler returns: read it back until it is there.
      const pollUntilStored = async () => {
        while (!settled) {
          await fromJobRow().catch(() => undefined);
          if (!settled) await new Promise((r) => setTimeout(r, 25));
        }
      };
      const poll = setInterval(() => void fromJobRow().catch(() => undefined), SAFETY_POLL_MS);
      const deadline = setTimeout(() => {
        // Nobody will wait any more: a job that has not run yet must not run later. The job is cancelled
        // before the caller hears of the time-out, so an answer saying so is true when it is sent. The
        // safety poll stops first: it would read the cancelled job as failed. A reply that comes in the
        // meantime still wins.
        clearInterval(poll);
        boss()
          .cancel(queue, id)
          .catch((error) => this.log.warn({ err: error, queue, id }, 'could not cancel a timed-out job'))
          .finally(() => finish(() => reject(new JobTimeoutError(queue, id, timeoutMs))));
      }, timeoutMs);
      this.waiters.set(id, { onReply });
      // A job sent by an earlier run of the request may have answered long ago: its row says so.
      if (how.readNow) void fromJobRow().catch(() => undefined);
    });
  }

  /** Waiters still pending, for shutdown and tests. */
  get pending(): number {
    return this.waiters.size;
  }
}

function describeOutput(output: unknown): string {
  if (output && typeof output === 'object' && 'message' in output) return String(output.message);
  return 'failed';
}
