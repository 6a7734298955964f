// The reference's words for `GET /health` (docs/api-notes.md: Errors; docs/operations.md: Processes).
import { doc } from '../openapi/route-facts.js';
import { SERVICE_ANSWERS } from '../openapi/shapes/service.js';

export const HEALTH_DOC = doc({
  summary: 'Is the service up?',
  description:
    'Outside the versioned API; needs no caller and stays cheap, for load balancers. 200 while the database answers: `status` is `ok`, or `degraded` when the job queue does not answer. When the database does not answer, 503 `unavailable` with `detail` `{ database, queue }` (each `ok` or `down`).',
  errors: ['unavailable'],
  headers: { 'Cache-Control': '`no-store`' },
  response: SERVICE_ANSWERS.health,
  example: { data: { status: 'ok', database: 'ok', queue: 'ok' } },
});

export const READY_DOC = doc({
  summary: 'Is this process ready for traffic?',
  description:
    'For load balancers; needs no caller. 200 only while the database answers, the job queue answers and the database has every migration of this build; otherwise 503 `unavailable` with `detail` `{ database, queue, migrations }` (`ok` or `down`; `migrations` also `pending`). A process that is stopping answers 503 (its queue is closed first). `GET /health` stays the cheap liveness answer.',
  errors: ['unavailable'],
  headers: { 'Cache-Control': '`no-store`' },
  response: SERVICE_ANSWERS.ready,
  example: { data: { status: 'ready', database: 'ok', queue: 'ok', migrations: 'ok' } },
});
