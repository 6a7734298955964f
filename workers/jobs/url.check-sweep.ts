// url.check-sweep: every minute, queues the scheduled checks of live games that are due (see
// shared/arcade/rechecks.ts).
import { sweepRechecks } from '../../shared/arcade/rechecks.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

export const sweepChecks: JobHandler<JobPayloads['url.check-sweep']> = async (_payload, context) => {
  return { queued: await sweepRechecks(context.knex) };
};
