// Every queue of the service, declared once: its name, payload type and options. The worker refuses to
// start while a queue here has no handler in workers/jobs/index.ts. Handlers take ids, not objects,
// treat a vanished row as done, and are safe to run twice.
import type { Knex } from 'knex';
import type { QueueOptions } from './boss.js';
import { sendInTransaction, sendManyInTransaction, type SendOptions } from './send.js';

export interface JobPayloads {
  /** Deliver one outbox email (shared/platform/email/outbox.ts). */
  'email.send': { email_id: string };
  /** Decode, check, screen, encode and store one upload (shared/media/image-uploads.ts). */
  'image.process': { upload_id: string };
  /** Remove unnamed layout images and storage objects no row points at. */
  'media.cleanup': Record<string, never>;
  /** Recompute per-game counts and the aggregates search sorts by (shared/catalog/catalog-stats.ts). */
  'catalog.stats': Record<string, never>;
  /** Fetch a release's proof file and entry URL through the outbound guard and store the check. */
  'url.check': { release_id: string; cause: 'check' | 'submit' | 'live' | 'report' | 'schedule' };
  /** Queue the scheduled checks of live games that are due, a batch at a time (shared/arcade/rechecks.ts). */
  'url.check-sweep': Record<string, never>;
  /** One attempt at delivering one data event to its game's server (shared/arcade/data-events.ts). */
  'data-event.deliver': { event_id: string };
  /** Delete what is kept only for a while (shared/retention/purge.ts). */
  'retention.purge': Record<string, never>;
  /** Queue again the data events whose delivery job was lost (a worker that died mid-attempt). */
  'data-event.sweep': Record<string, never>;
  /** One attempt at delivering one event for integrations to its app's URL (shared/events/event-delivery.ts). */
  'app-event.deliver': { event_id: string };
  /** Queue the events for integrations no job carries: new ones the dispatcher missed, lost deliveries. */
  'app-event.sweep': Record<string, never>;
}

export type QueueName = keyof JobPayloads;

/**
 * A signed-event delivery queue (data events, events for integrations: shared/delivery/engine.ts). Failed
 * attempts are scheduled by the delivery itself (the spec's schedule); pg-boss retries only a job that died
 * with its worker. A lease on the event row keeps two jobs from sending it at once.
 */
const SIGNED_DELIVERY: QueueOptions = {
  retryLimit: 3,
  retryDelay: 15,
  retryBackoff: false,
  expireInSeconds: 30,
  retentionMinutes: 60,
  // Up to 1,000 attempts in flight, each job completed as soon as its own attempt is written: a receiver
  // that hangs holds its own jobs' slots for up to the 10 s time-out, never a batch of other receivers'
  // events. A backlog is still fetched, and claimed, in groups (a quarter of the slots at least).
  slots: 1000,
  pollingIntervalSeconds: 0.5,
};

/** The sweep of a signed-event queue: a minute apart, never two at once, a slow one not retried. */
const SIGNED_SWEEP: QueueOptions = {
  retryLimit: 0,
  retryDelay: 0,
  retryBackoff: false,
  expireInSeconds: 60,
  retentionMinutes: 60,
  policy: 'singleton',
  concurrency: 1,
};

export const QUEUES: Record<QueueName, QueueOptions> = {
  'email.send': {
    // A mail server that is down for a while should not lose the message: about 2 days of backoff.
    retryLimit: 12,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    retentionMinutes: 60 * 24 * 7,
    concurrency: 2,
  },
  'image.process': {
    // The route waits for one attempt; a retry after it has answered would help nobody.
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: 120,
    retentionMinutes: 60,
    reply: true,
    // One job per image thread; more would only queue inside the pool.
    concurrency: 1,
    pollingIntervalSeconds: 1,
  },
  'catalog.stats': {
    // The next run comes in 5 minutes anyway: no retries piling up behind a slow one.
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: 240,
    retentionMinutes: 60,
    policy: 'singleton',
    concurrency: 1,
  },
  'url.check': {
    // A route waits for one attempt; the developer retries. A report's re-check runs again next report; a
    // scheduled one when its game's lease ends (rechecks.ts).
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: 60,
    retentionMinutes: 60 * 24,
    reply: true,
    concurrency: 4,
    pollingIntervalSeconds: 1,
  },
  'url.check-sweep': {
    // The next run comes in a minute: a slow one is not retried, and never runs beside another.
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: 50,
    retentionMinutes: 60,
    policy: 'singleton',
    concurrency: 1,
  },
  'data-event.deliver': SIGNED_DELIVERY,
  'data-event.sweep': SIGNED_SWEEP,
  'app-event.deliver': SIGNED_DELIVERY,
  'app-event.sweep': SIGNED_SWEEP,
  'retention.purge': {
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: false,
    expireInSeconds: 3600,
    retentionMinutes: 60 * 24 * 7,
    policy: 'singleton',
    concurrency: 1,
  },
  'media.cleanup': {
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: false,
    expireInSeconds: 3600,
    retentionMinutes: 60 * 24 * 7,
    concurrency: 1,
  },
};

/** Jobs the worker schedules with pg-boss's cron (times in UTC). */
export const SCHEDULES: Array<{ queue: QueueName; cron: string }> = [
  { queue: 'media.cleanup', cron: '17 4 * * *' },
  { queue: 'catalog.stats', cron: '*/5 * * * *' },
  { queue: 'data-event.sweep', cron: '* * * * *' },
  { queue: 'app-event.sweep', cron: '* * * * *' },
  { queue: 'url.check-sweep', cron: '* * * * *' },
  { queue: 'retention.purge', cron: '37 4 * * *' },
];

/** Sends a declared job inside `trx`: it exists only if the transaction commits. */
export function sendJob<N extends QueueName>(
  trx: Knex.Transaction,
  name: N,
  payload: JobPayloads[N],
  options?: SendOptions,
): Promise<string> {
  return sendInTransaction(trx, name, payload, options);
}

/** Sends many jobs of one queue inside `trx`, in one statement, each after its own delay (send.ts). */
export function sendJobs<N extends QueueName>(
  trx: Knex.Transaction,
  name: N,
  jobs: Array<{ payload: JobPayloads[N]; delaySeconds?: number }>,
): Promise<void> {
  return sendManyInTransaction(
    trx,
    name,
    jobs.map(({ payload, delaySeconds }) => ({ data: payload, delaySeconds })),
  );
}
