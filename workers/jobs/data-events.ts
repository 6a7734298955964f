// data-event.deliver and data-event.sweep: see shared/arcade/delivery.ts.
import { deliverDataEvent, sweepDataEvents } from '../../shared/arcade/delivery.js';
import { config } from '../../shared/config.js';
import type { JobPayloads } from '../../shared/queue.js';
import type { JobHandler } from '../job-context.js';

export const deliverEvent: JobHandler<JobPayloads['data-event.deliver']> = async ({ event_id }, context) => {
  const outcome = await deliverDataEvent(context.knex, event_id, {
    secret: config().secret,
    issuer: config().publicUrl,
  });
  return { outcome };
};

export const sweepEvents: JobHandler<JobPayloads['data-event.sweep']> = async (_payload, context) => {
  const queued = await sweepDataEvents(context.knex);
  if (queued > 0) context.log.warn({ queued }, 'data events queued again after a lost delivery');
  return { queued };
};
