// Baseline for the `stack` scenario: a bare node:http server answering the same 404 JSON the API sends
// for an unknown route, with nothing else (no ids, logs, parsing or routing).
import http from 'node:http';
import { listenOnLoopback } from './listen.js';

const body = JSON.stringify({ error: { code: 'not_found', message: 'No route matches GET /api/v1/nothing.' } });
const server = http.createServer((_req, res) => {
  res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
listenOnLoopback(server);
