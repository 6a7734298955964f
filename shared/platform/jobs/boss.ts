// pg-boss, started by both processes on the service's own database. The API process only sends and
// watches jobs; the worker process also runs maintenance and schedules.
import PgBoss from 'pg-boss';
import { pgPoolTimeouts, type DatabaseTimeouts } from '../db/timeouts.js';
import type { Logger } from '../logger.js';

export type { PgBoss };

/** Options every queue declaration carries (see shared/platform/jobs/queue.ts). */
export interface QueueOptions {
  retryLimit: number;
  /** Seconds before the first retry. */
  retryDelay: number;
  retryBackoff: boolean;
  /** How long one attempt may run before pg-boss counts it as failed. */
  expireInSeconds: number;
  retentionMinutes?: number;
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /** The worker tells a waiting sender the result (request/reply, see request-reply.ts). */
  reply?: boolean;
  /** Parallel attempts per worker process. */
  concurrency?: number;
  /** How often an idle worker looks for jobs when no wake-up signal arrives. */
  pollingIntervalSeconds?: number;
  /**
   * Jobs one worker fetches and runs together (1 by default). pg-boss waits out the polling interval
   * after each fetch, so a busy queue of short jobs needs batches to go faster than one job per interval
   * per worker. A batch succeeds or fails as a whole: only for handlers whose repeats are harmless.
   */
  batchSize?: number;
  /**
   * Instead of pg-boss workers (`concurrency` x `batchSize`, each batch held until its slowest job ends):
   * up to this many jobs in flight, each completed on its own as soon as it ends, its slot refilled by the
   * next fetch (workers/slot-consumer.ts). For queues whose jobs may hang for their whole time-out beside
   * ones that take milliseconds (data events).
   */
  slots?: number;
}

export type Role = 'api' | 'worker' | 'tool';

let current: PgBoss | null = null;

export async function startBoss(
  connectionString: string,
  role: Role,
  log: Logger,
  /** The web's limits on the database (db/timeouts.ts): its routes send and read jobs on this pool too. */
  timeouts?: DatabaseTimeouts,
): Promise<PgBoss> {
  if (current) throw new Error('pg-boss is already started in this process');
  const boss = new PgBoss({
    connectionString,
    schema: 'pgboss',
    application_name: `jogatina-${role}-queue`,
    max: role === 'worker' ? 6 : 3,
    // pg-boss hands these to its pg.Pool, whose `query` drops a client whose statement was given up.
    ...pgPoolTimeouts(timeouts),
    migrate: true,
    // Maintenance and cron belong to workers; API processes only send and read jobs.
    supervise: role === 'worker',
    schedule: role === 'worker',
  });
  boss.on('error', (error) => log.error({ err: error }, 'queue error'));
  await boss.start();
  current = boss;
  return boss;
}

export function boss(): PgBoss {
  if (!current) throw new Error('pg-boss is not started in this process');
  return current;
}

export function bossStarted(): boolean {
  return current !== null;
}

/** Stops fetching, waits for running jobs up to `timeoutMs`, then closes the pool. */
export async function stopBoss(timeoutMs: number): Promise<void> {
  const stopping = current;
  current = null;
  if (stopping) await stopping.stop({ graceful: true, wait: true, timeout: timeoutMs, close: true });
}

/** Creates each declared queue, or brings its options up to date; safe to run from many processes. */
export async function ensureQueues(target: PgBoss, queues: Record<string, QueueOptions>): Promise<void> {
  for (const [name, options] of Object.entries(queues)) {
    const settings: PgBoss.Queue = {
      name,
      policy: options.policy ?? 'standard',
      retryLimit: options.retryLimit,
      retryDelay: options.retryDelay,
      retryBackoff: options.retryBackoff,
      expireInSeconds: options.expireInSeconds,
    };
    // pg-boss refuses a key that is present but undefined.
    if (options.retentionMinutes !== undefined) settings.retentionMinutes = options.retentionMinutes;
    if (await target.getQueue(name)) await target.updateQueue(name, settings);
    else await target.createQueue(name, settings);
  }
}
