// Subscribes a handler to every declared queue. A declared queue without a handler would fill up
// unnoticed, so the worker refuses to start instead.
import type PgBoss from 'pg-boss';
import type { QueueOptions } from '../shared/platform/jobs/boss.js';
import { encodeReply } from '../shared/platform/jobs/request-reply.js';
import { JOB_DONE, JOBS_SENT, type Signals } from '../shared/platform/jobs/signals.js';
import type { JobHandler, WorkerServices } from './job-context.js';
import type { JobMetrics, JobOutcome } from './job-metrics.js';
import { SlotConsumer } from './slot-consumer.js';

export class MissingHandlerError extends Error {
  constructor(readonly queues: string[]) {
    super(`the worker has no handler for declared queue(s): ${queues.join(', ')}`);
    this.name = 'MissingHandlerError';
  }
}

/** Declared queues that lack a handler. */
export function missingHandlers(queues: Record<string, unknown>, handlers: Record<string, unknown>): string[] {
  return Object.keys(queues).filter((name) => typeof handlers[name] !== 'function');
}

export interface WorkerOptions {
  boss: PgBoss;
  signals: Signals;
  services: WorkerServices;
  queues: Record<string, QueueOptions>;
  handlers: Record<string, JobHandler<never>>;
  /** Counts every attempt by queue and outcome (the worker's metrics), when given. */
  metrics?: JobMetrics;
}

export interface RunningWorker {
  /** pg-boss worker ids per queue, used to wake them (queues with `slots` have slot consumers instead). */
  workerIds: Map<string, string[]>;
  /**
   * Stops fetching on every queue, and waits up to `timeoutMs` for the slot consumers' jobs in flight to
   * end and be completed (pg-boss's own stop waits for its workers' jobs). Call it before stopping pg-boss.
   */
  stop(timeoutMs?: number): Promise<void>;
}

export async function subscribeAll(options: WorkerOptions): Promise<RunningWorker> {
  const missing = missingHandlers(options.queues, options.handlers);
  if (missing.length > 0) throw new MissingHandlerError(missing);

  const workerIds = new Map<string, string[]>();
  // The consumers of queues with `slots` (slot-consumer.ts), which pg-boss's offWork and stop do not know.
  const consumers = new Map<string, SlotConsumer>();
  for (const [queue, settings] of Object.entries(options.queues)) {
    if (settings.slots) {
      const consumer = new SlotConsumer({
        boss: options.boss,
        queue,
        slots: settings.slots,
        pollingMs: (settings.pollingIntervalSeconds ?? 2) * 1000,
        run: runOne(queue, settings, options.handlers[queue] as JobHandler<unknown>, options.services, options.metrics),
        log: options.services.log,
      });
      consumer.start();
      consumers.set(queue, consumer);
      continue;
    }
    const handle = wrap(
      queue,
      settings,
      options.handlers[queue] as JobHandler<unknown>,
      options.services,
      options.metrics,
    );
    const ids: string[] = [];
    for (let i = 0; i < (settings.concurrency ?? 1); i += 1) {
      ids.push(
        await options.boss.work(
          queue,
          {
            batchSize: settings.batchSize ?? 1,
            includeMetadata: true,
            pollingIntervalSeconds: settings.pollingIntervalSeconds ?? 2,
          },
          handle,
        ),
      );
    }
    workerIds.set(queue, ids);
  }

  // A sender's NOTIFY wakes the idle workers of that queue at once instead of at their next poll.
  await options.signals.listen(JOBS_SENT, (queue) => {
    for (const id of workerIds.get(queue) ?? []) options.boss.notifyWorker(id);
    consumers.get(queue)?.notify();
  });
  return {
    workerIds,
    async stop(timeoutMs = 10_000) {
      for (const ids of workerIds.values()) for (const id of ids) await options.boss.offWork({ id });
      await Promise.all([...consumers.values()].map((consumer) => consumer.stop(timeoutMs)));
    },
  };
}

function wrap(
  queue: string,
  settings: QueueOptions,
  handler: JobHandler<unknown>,
  services: WorkerServices,
  metrics?: JobMetrics,
): PgBoss.WorkWithMetadataHandler<unknown> {
  const one = runOne(queue, settings, handler, services, metrics);
  // A batch runs its jobs side by side; one that throws fails the batch, which pg-boss retries.
  return async (jobs) => (jobs.length === 1 ? one(jobs[0]) : Promise.all(jobs.map((job) => one(job))));
}

function runOne(
  queue: string,
  settings: QueueOptions,
  handler: JobHandler<unknown>,
  services: WorkerServices,
  metrics?: JobMetrics,
) {
  return async (job: PgBoss.JobWithMetadata<unknown>) => {
    const context = { ...services, jobId: job.id, queue, retryCount: job.retryCount, retryLimit: job.retryLimit };
    const started = performance.now();
    const finished = (outcome: JobOutcome) => metrics?.observeJob(queue, outcome, (performance.now() - started) / 1000);
    try {
      const result = await handler(job.data, context);
      if (settings.reply) await reply(services, { id: job.id, ok: true, result });
      finished('completed');
      return result;
    } catch (error) {
      finished('failed');
      services.log.warn({ err: error, queue, job_id: job.id, attempt: job.retryCount + 1 }, 'job attempt failed');
      // The waiting sender hears only the final outcome; earlier failures are retried first.
      if (settings.reply && job.retryCount >= job.retryLimit) {
        await reply(services, { id: job.id, ok: false, error: (error as Error).message }).catch(() => undefined);
      }
      throw error;
    }
  };
}

async function reply(services: WorkerServices, body: Parameters<typeof encodeReply>[0]): Promise<void> {
  await services.knex.raw('SELECT pg_notify(?, ?)', [JOB_DONE, encodeReply(body)]);
}
