// The handler of every declared queue, each in the file named after its queue (workers/jobs/<queue>.ts).
// A queue of shared/platform/jobs/queue.ts missing here stops the worker at start.
import type { JobPayloads, QueueName } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';
import { catalogStats } from './catalog.stats.js';
import { sweepChecks } from './url.check-sweep.js';
import { checkUrl } from './url.check.js';
import { deliverEvent } from './data-event.deliver.js';
import { sweepEvents } from './data-event.sweep.js';
import { cleanMedia } from './media.cleanup.js';
import { processImageJob } from './image.process.js';
import { purgeRetentionJob } from './retention.purge.js';
import { sendEmail } from './email.send.js';
import { deliverAppEvent } from './app-event.deliver.js';
import { sweepAppEventsJob } from './app-event.sweep.js';

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
  'app-event.deliver': deliverAppEvent,
  'app-event.sweep': sweepAppEventsJob,
};
