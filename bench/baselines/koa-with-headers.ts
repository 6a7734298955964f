// Reference for the `stack` scenario: bare Koa answering the same 404 JSON with the headers every answer of
// the API carries (a request id, the two CORS headers, `Cache-Control: no-store` on an error), and nothing
// else: no log line, metric, router or authentication. What these four headers cost alone shows how much of
// the target the features promised on every answer leave to the rest.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import Koa from 'koa';
import { EXPOSED_HEADERS } from '../../api/middleware/cors.js';
import { NO_STORE } from '../../api/middleware/conditional.js';
import { listenOnLoopback } from './listen.js';

const body = { error: { code: 'not_found', message: 'No route matches GET /api/v1/nothing.' } };
const exposed = EXPOSED_HEADERS.join(', ');
const app = new Koa();
app.use(async (ctx) => {
  ctx.set('X-Request-Id', randomUUID());
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', exposed);
  ctx.set('Cache-Control', NO_STORE);
  ctx.status = 404;
  ctx.body = body;
});
const server = http.createServer(app.callback());
listenOnLoopback(server);
