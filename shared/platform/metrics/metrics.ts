// The web process's metrics in Prometheus' format (`GET /metrics`, prom-client): requests by route and
// status with their durations, counted as requests finish; the queue and pool gauges every process has
// (queue-gauges.ts), read when scraped. One registry per app, so several apps in one process (tests) do
// not share counts. The worker's are in job-metrics.ts.
import type { Knex } from 'knex';
import { Counter, Histogram, type Registry } from 'prom-client';
import { newRegistry, registerQueueGauges } from './queue-gauges.js';

export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

export function createMetrics(knex: Knex, queues: string[]): Metrics {
  const registry = newRegistry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'jogatina_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'jogatina_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route pattern and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  registerQueueGauges(registry, knex, queues);
  // Series are bounded: methods x route patterns x statuses (never raw paths; see request-frame.ts).
  const children = new Map<
    string,
    { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof durations.labels> }
  >();
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      // Each series' children are looked up once: prom-client hashes a labels object on every call.
      const key = `${method} ${status} ${route}`;
      let series = children.get(key);
      if (!series) {
        const labels = { method, route, status: String(status) };
        series = { count: requests.labels(labels), time: durations.labels(labels) };
        children.set(key, series);
      }
      series.count.inc();
      series.time.observe(seconds);
    },
  };
}
