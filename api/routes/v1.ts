// Every route of the versioned API lives under `/api/v1`; each area adds its router here.
import Router from '@koa/router';
import type { AppState } from '../context.js';

export function v1Routes(areas: Router<AppState>[] = []): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/v1' });
  for (const area of areas) router.use(area.routes(), area.allowedMethods());
  return router;
}
