// The app's router, built as the server builds it but never listening, so a test can compare what the
// router runs with what the reference says.
import type Router from '@koa/router';
import { createApp } from '../../api/app.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { JobReplies } from '../../shared/platform/jobs/request-reply.js';
import type { Signals } from '../../shared/platform/jobs/signals.js';
import { createLogger } from '../../shared/platform/logger.js';

export function appRouter(): Router {
  const log = createLogger('silent');
  const app = createApp({
    knex: db(),
    log,
    config: config(),
    boss: () => null,
    replies: new JobReplies({} as Signals, db(), log),
  });
  const mounted = app.middleware.find((middleware) => 'router' in middleware);
  return (mounted as unknown as { router: Router }).router;
}
