// data-event.deliver: one attempt at delivering one data event (see shared/arcade/delivery.ts).
import { deliverDataEvent } from '../../shared/arcade/delivery.js';
import { config } from '../../shared/platform/config.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

export const deliverEvent: JobHandler<JobPayloads['data-event.deliver']> = async ({ event_id }, context) => {
  const outcome = await deliverDataEvent(context.knex, event_id, {
    secret: config().secret,
    issuer: config().publicUrl,
  });
  return { outcome };
};
