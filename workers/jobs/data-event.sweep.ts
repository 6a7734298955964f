// data-event.sweep: queues again the deliveries a dead worker left (see shared/arcade/delivery.ts).
import { sweepDataEvents } from '../../shared/arcade/delivery.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

export const sweepEvents: JobHandler<JobPayloads['data-event.sweep']> = async (_payload, context) => {
  const queued = await sweepDataEvents(context.knex);
  if (queued > 0) context.log.warn({ queued }, 'data events queued again after a lost delivery');
  return { queued };
};
