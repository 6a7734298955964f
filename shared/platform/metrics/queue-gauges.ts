// What every process's metrics report, read when scraped: jobs waiting in each queue and how long the
// oldest has waited (the queue's lag), jobs failed for good, and the database pool's connections; with
// Node's own (memory, event loop, garbage collection) under the `jogatina_` prefix.
import type { Knex } from 'knex';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';

interface KnexPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

export function newRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'jogatina_' });
  return registry;
}

export function registerQueueGauges(registry: Registry, knex: Knex, queues: string[]): void {
  new Gauge({
    name: 'jogatina_queue_waiting_jobs',
    help: 'Jobs waiting in each queue',
    labelNames: ['queue'],
    registers: [registry],
    // One statement for every queue (as pg-boss's getQueueSize counts them: states before `active`),
    // not one round trip per queue on every scrape.
    async collect() {
      const { rows } = await knex.raw<{ rows: Array<{ name: string; n: number }> }>(
        `SELECT name, count(*)::int AS n FROM pgboss.job WHERE state < 'active' GROUP BY name`,
      );
      for (const name of queues) this.set({ queue: name }, rows.find((row) => row.name === name)?.n ?? 0);
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
  new Gauge({
    name: 'jogatina_queue_lag_seconds',
    help: 'Age of the oldest job that could run now and waits, by queue (0 when none waits)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const { rows } = await knex.raw<{ rows: Array<{ name: string; seconds: number }> }>(
        `SELECT name, extract(epoch FROM now() - min(start_after))::float AS seconds
         FROM pgboss.job WHERE state < 'active' AND start_after <= now() GROUP BY name`,
      );
      for (const name of queues) this.set({ queue: name }, rows.find((row) => row.name === name)?.seconds ?? 0);
    },
  });
}
