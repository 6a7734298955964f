// The handler of every declared queue. A queue of shared/queue.ts missing here stops the worker at start.
import type { JobPayloads, QueueName } from '../../shared/queue.js';
import type { JobHandler } from '../job-context.js';
import { catalogStats } from './catalog-stats.js';
import { sweepChecks } from './check-sweep.js';
import { checkUrl } from './check-url.js';
import { deliverEvent, sweepEvents } from './data-events.js';
import { cleanMedia } from './clean-media.js';
import { processImageJob } from './process-image.js';
import { purgeRetentionJob } from './retention.js';
import { sendEmail } from './send-email.js';

export type JobHandlers = { [N in QueueName]: JobHandler<JobPayloads[N]> };

export const jobHandlers: JobHandlers = {
  'email.send': sendEmail,
  'image.process': processImageJob,
  'media.cleanup': cleanMedia,
  'catalog.stats': catalogStats,
  'url.check': checkUrl,
  'url.check-sweep': sweepChecks,
  'data-event.deliver': deliverEvent,
  'data-event.sweep': sweepEvents,
  'retention.purge': purgeRetentionJob,
};
