import { cleanMediaNow } from '../../shared/media/media-cleanup.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

export const cleanMedia: JobHandler<JobPayloads['media.cleanup']> = async (_payload, context) => {
  const report = await cleanMediaNow(context.knex, context.media);
  context.log.info(report, 'media cleanup');
  return report;
};
