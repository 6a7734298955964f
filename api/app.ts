// The Koa application and the order of its middleware (see ARCHITECTURE: a request, end to end).
import Router from '@koa/router';
import Koa from 'koa';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { Logger } from '../shared/logger.js';
import type { AppState } from './context.js';
import { jsonBody } from './middleware/body.js';
import { requestFrame } from './middleware/request-frame.js';
import { healthRoutes } from './routes/health.js';

export const JSON_LIMIT_BYTES = 1024 * 1024;

export interface AppDependencies {
  knex: Knex;
  log: Logger;
  /** A function, so health sees the queue stop during shutdown. */
  boss: () => PgBoss | null;
  /** Extra routers mounted at the root after the API's own (tests mount probes of the middleware here). */
  extraRoutes?: Router<AppState>[];
  /** Behind a proxy that sets X-Forwarded-For (true on a platform such as Heroku). */
  proxy?: boolean;
}

export function createApp(deps: AppDependencies): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.proxy ?? false });
  // Errors are rendered by errorMapper; Koa's own handler would print them a second time.
  app.silent = true;

  app.use(requestFrame(deps.log));
  app.use(jsonBody({ limitBytes: JSON_LIMIT_BYTES }));

  // One flat router for every route (see routes/versioned.ts): one path match per request.
  const router = new Router<AppState>();
  healthRoutes(router, deps.knex, deps.boss);
  // Areas register here: areaRoutes(new VersionedRoutes(router), services).
  for (const extra of deps.extraRoutes ?? []) router.use(extra.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
