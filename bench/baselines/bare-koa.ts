// Reference for the `stack` scenario: Koa with one middleware answering the same 404 JSON, to show how
// much of the gap to raw node:http is the framework's and how much is our middleware's.
import http from 'node:http';
import Koa from 'koa';
import { listenOnLoopback } from './listen.js';

const body = { error: { code: 'not_found', message: 'No route matches GET /api/v1/nothing.' } };
const app = new Koa();
app.use(async (ctx) => {
  ctx.status = 404;
  ctx.body = body;
});
const server = http.createServer(app.callback());
listenOnLoopback(server);
