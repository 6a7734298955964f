// The handler of a signed-event delivery queue (data-event.deliver, app-event.deliver): one attempt at
// delivering one event (shared/delivery/engine.ts). The queue's slot consumer (slot-consumer.ts) starts the
// jobs of one fetch in the same turn of the event loop; they are gathered here into one deliverEvents (one
// statement to claim them all) instead of a claim each. Each job still ends with its own event's outcome as
// soon as that is written, so its slot frees then, whatever the other events of its fetch are waiting for;
// a failure of its own (the database gone) fails it alone, and a failure of the claim fails every job of
// the fetch. pg-boss retries what failed.
import type { Knex } from 'knex';
import {
  deliverEvents,
  type ClaimedEvent,
  type DeliveryOutcome,
  type DeliveryTarget,
} from '../shared/delivery/engine.js';
import { config } from '../shared/platform/config.js';
import type { JobHandler } from './job-context.js';

interface Waiting {
  eventId: string;
  resolve(outcome: DeliveryOutcome): void;
  reject(error: unknown): void;
}

async function run<E extends ClaimedEvent>(target: DeliveryTarget<E>, knex: Knex, waiting: Waiting[]): Promise<void> {
  // One event may come twice (a sweep raced its job): it is attempted once, and both hear the outcome.
  const jobsOf = new Map<string, Waiting[]>();
  for (const job of waiting) {
    const same = jobsOf.get(job.eventId);
    if (same) same.push(job);
    else jobsOf.set(job.eventId, [job]);
  }
  const answer = (outcomes: Map<string, DeliveryOutcome>) => {
    for (const [id, outcome] of outcomes) for (const job of jobsOf.get(id) ?? []) job.resolve(outcome);
  };
  const fail = (id: string, error: unknown) => {
    for (const job of jobsOf.get(id) ?? []) job.reject(error);
  };
  try {
    await deliverEvents(
      target,
      knex,
      [...jobsOf.keys()],
      { secret: config().secret, issuer: config().publicUrl },
      answer,
      fail,
    );
  } catch (error) {
    // A job already answered keeps its outcome (a promise settles once); the rest fail and pg-boss retries.
    for (const job of waiting) job.reject(error);
  }
}

/** The job handler of `target`'s queue: jobs started in one turn share one claim. */
export function gatheredDelivery<E extends ClaimedEvent>(target: DeliveryTarget<E>): JobHandler<{ event_id: string }> {
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
        void run(target, group.knex, group.waiting);
      });
    });
  }

  return async ({ event_id }, context) => ({ outcome: await deliverTogether(context.knex, event_id) });
}
