// `GET /metrics` in Prometheus' text format, for the operator's scraper only. Its bearer token is
// METRICS_TOKEN's (401 otherwise) and it is not served at all while that is unset (404), so a default
// install shows nothing about itself. It is answered before authentication, like the media files: the
// scraper's bearer token is not an API key. `/health` stays public and cheap.
import type { Middleware } from 'koa';
import { notFound, unauthorized } from '../../shared/platform/errors.js';
import type { Metrics } from '../../shared/platform/metrics/metrics.js';
import { bearerMatches } from '../../shared/platform/metrics/metrics-token.js';
import type { AppState } from '../context.js';

export function metricsEndpoint(metrics: Metrics, token: string | null): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (!token) throw notFound('Metrics are not served here.');
    if (!bearerMatches(ctx.get('Authorization'), token)) throw unauthorized('The metrics token is missing or wrong.');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}
