import { recomputeCatalogStats } from '../../shared/catalog/catalog-stats.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

export const catalogStats: JobHandler<JobPayloads['catalog.stats']> = async (_payload, context) => {
  const report = await recomputeCatalogStats(context.knex);
  context.log.info(report, 'catalog stats');
  return report;
};
