// `GET /metrics` in Prometheus' text format, for the operator's scraper only. Its bearer token is
// METRICS_TOKEN's (401 otherwise) and it is not served at all while that is unset (404), so a default
// install shows nothing about itself. It is answered before authentication, like the media files: the
// scraper's bearer token is not an API key. `/health` stays public and cheap.
import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { notFound, unauthorized } from '../../shared/platform/errors.js';
import type { Metrics } from '../../shared/platform/metrics/metrics.js';
import type { AppState } from '../context.js';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function metricsEndpoint(metrics: Metrics, token: string | null): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (!token) throw notFound('Metrics are not served here.');
    const given = /^Bearer +(\S+) *$/i.exec(ctx.get('Authorization'))?.[1] ?? '';
    if (!sameToken(given, token)) throw unauthorized('The metrics token is missing or wrong.');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}
