// data-event.deliver: one attempt at delivering one data event (see shared/arcade/delivery.ts). The queue
// hands a worker its jobs in batches, run side by side; the jobs of one batch start in the same turn of
// the event loop, and are gathered here into one deliverDataEvents (one statement to claim them, one per
// receiver to settle them) instead of two statements each. Each job still answers its own event's
// outcome, and a failure of the whole (the database gone) fails each job, which pg-boss retries.
import type { Knex } from 'knex';
import { deliverDataEvents, type DeliveryOutcome } from '../../shared/arcade/delivery.js';
import { config } from '../../shared/platform/config.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

interface Waiting {
  eventId: string;
  resolve(outcome: DeliveryOutcome): void;
  reject(error: unknown): void;
}

let gathering: { knex: Knex; waiting: Waiting[] } | null = null;

function deliverTogether(knex: Knex, eventId: string): Promise<DeliveryOutcome> {
  return new Promise((resolve, reject) => {
    if (gathering && gathering.knex === knex) {
      gathering.waiting.push({ eventId, resolve, reject });
      return;
    }
    const group = { knex, waiting: [{ eventId, resolve, reject }] };
    gathering = group;
    // The batch's other jobs join before this runs (they start in the same turn).
    setImmediate(() => {
      if (gathering === group) gathering = null;
      void run(group.knex, group.waiting);
    });
  });
}

async function run(knex: Knex, waiting: Waiting[]): Promise<void> {
  // One event may come twice (a sweep raced its job): it is attempted once, and both hear the outcome.
  const ids = [...new Set(waiting.map((job) => job.eventId))];
  // Each job ends as soon as its receiver's attempts are written (every event is heard once that way), not
  // when the batch's slowest is.
  const answer = (outcomes: Map<string, DeliveryOutcome>) => {
    for (const job of waiting) {
      const outcome = outcomes.get(job.eventId);
      if (outcome !== undefined) job.resolve(outcome);
    }
  };
  try {
    await deliverDataEvents(knex, ids, { secret: config().secret, issuer: config().publicUrl }, answer);
  } catch (error) {
    // A job already answered keeps its outcome (a promise settles once); the rest fail and pg-boss retries.
    for (const job of waiting) job.reject(error);
  }
}

export const deliverEvent: JobHandler<JobPayloads['data-event.deliver']> = async ({ event_id }, context) => {
  const outcome = await deliverTogether(context.knex, event_id);
  return { outcome };
};
