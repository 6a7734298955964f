// The reference's words for `GET /health` (README: Errors, Processes).
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
