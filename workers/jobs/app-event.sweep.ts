// app-event.sweep: events for integrations no job carries (shared/events/event-delivery.ts, sweepAppEvents).
import { sweepAppEvents } from '../../shared/events/event-delivery.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

export const sweepAppEventsJob: JobHandler<JobPayloads['app-event.sweep']> = async (_payload, context) => {
  const swept = await sweepAppEvents(context.knex);
  if (swept.requeued > 0) context.log.warn(swept, 'events for integrations queued again after a lost delivery');
  return swept;
};
