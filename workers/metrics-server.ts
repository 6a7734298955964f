// Each worker process's own `GET /metrics` (WORKER_METRICS_PORT), behind the web's METRICS_TOKEN: a worker
// has no HTTP of its own otherwise, and a scraper needs every process, since each counts its own jobs.
// Anything but GET or HEAD /metrics is 404; a missing or wrong token 401, in the API's error shape.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { ApiError, notFound, unauthorized } from '../shared/platform/errors.js';
import { bearerMatches } from '../shared/platform/metrics/metrics-token.js';

function refuse(res: http.ServerResponse, error: ApiError): void {
  res.writeHead(error.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(error.body()));
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function serveMetrics(
  registry: Registry,
  token: string,
  host: string,
  port: number,
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return refuse(res, notFound('Only GET /metrics is served here.'));
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      return refuse(res, unauthorized('The metrics token is missing or wrong.'));
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => refuse(res, new ApiError('internal')),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
