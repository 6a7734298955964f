// Metrics in Prometheus' format (`GET /metrics`, prom-client): requests by route and status with their
// durations, counted as requests finish; queue depths, failed jobs by queue and database pool use, read
// when scraped. One registry per app, so several apps in one process (tests) do not share counts.
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

interface KnexPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

export function createMetrics(knex: Knex, boss: () => PgBoss | null, queues: string[]): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'jogatina_' });
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
  new Gauge({
    name: 'jogatina_queue_waiting_jobs',
    help: 'Jobs waiting in each queue',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const queue = boss();
      if (!queue) return;
      for (const name of queues) this.set({ queue: name }, await queue.getQueueSize(name).catch(() => 0));
    },
  });
  new Gauge({
    name: 'jogatina_queue_failed_jobs',
    help: 'Jobs that failed for good, by queue (kept while pg-boss retains them)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      const { rows } = await knex.raw<{ rows: Array<{ name: string; n: number }> }>(
        `SELECT name, count(*)::int AS n FROM (
           SELECT name FROM pgboss.job WHERE state = 'failed'
           UNION ALL SELECT name FROM pgboss.archive WHERE state = 'failed') failed GROUP BY name`,
      );
      for (const name of queues) this.set({ queue: name }, rows.find((row) => row.name === name)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'jogatina_db_pool_connections',
    help: 'Connections of the database pool by state (used, free, waiting acquires)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = knex.client.pool as KnexPool | undefined;
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed());
      this.set({ state: 'free' }, pool.numFree());
      this.set({ state: 'waiting' }, pool.numPendingAcquires());
    },
  });
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
