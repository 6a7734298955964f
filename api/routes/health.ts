// `GET /health`, outside the versioned API: 200 while the database answers, else 503. Process managers
// and `npm start` poll it, so it stays cheap and needs no caller. `GET /health/ready` is for load
// balancers: 200 only while the database, the queue and the schema are all as this build needs them, so
// a process starting, draining or ahead of its migrations gets no traffic.
import type Router from '@koa/router';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { unavailable } from '../../shared/platform/errors.js';
import { checkReadiness, isReady } from '../../shared/platform/db/readiness.js';
import { checkHealth } from '../../shared/platform/health.js';
import type { AppState } from '../context.js';
import { publicRoute } from '../middleware/access.js';
import { HEALTH_DOC, READY_DOC } from './health-docs.js';

export function healthRoutes(router: Router<AppState>, knex: Knex, boss: () => PgBoss | null): void {
  router.get('/health', publicRoute(null), HEALTH_DOC, async (ctx) => {
    const health = await checkHealth(knex, boss());
    ctx.set('Cache-Control', 'no-store');
    if (health.database !== 'ok') throw unavailable('The database is not answering.', health);
    ctx.body = { data: { status: health.queue === 'ok' ? 'ok' : 'degraded', ...health } };
  });

  router.get('/health/ready', publicRoute(null), READY_DOC, async (ctx) => {
    const readiness = await checkReadiness(knex, boss());
    ctx.set('Cache-Control', 'no-store');
    if (!isReady(readiness)) throw unavailable('Not ready for traffic.', readiness);
    ctx.body = { data: { status: 'ready', ...readiness } };
  });
}
