import { purgeRetention } from '../../shared/retention/purge.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

/** retention.purge: see shared/retention/purge.ts. */
export const purgeRetentionJob: JobHandler<JobPayloads['retention.purge']> = async (_payload, context) => {
  const report = await purgeRetention(context.knex, context.media);
  context.log.info(report, 'retention purge');
  return report;
};
