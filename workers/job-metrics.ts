// The worker process's metrics (served on WORKER_METRICS_PORT, see metrics-server.ts): jobs by queue and
// outcome with their durations, counted as attempts finish; the image threads' use; and the queue and pool
// gauges every process reports (queue depth and lag, failed jobs, database pool), read when scraped.
import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { newRegistry, registerQueueGauges } from '../shared/platform/metrics/queue-gauges.js';
import type { ImagePool } from './images/image-pool.js';

export type JobOutcome = 'completed' | 'failed';

export interface JobMetrics {
  registry: Registry;
  observeJob(queue: string, outcome: JobOutcome, seconds: number): void;
}

export function createJobMetrics(knex: Knex, queues: string[], images: ImagePool): JobMetrics {
  const registry = newRegistry();
  registerQueueGauges(registry, knex, queues);
  const labelNames = ['queue', 'outcome'] as const;
  const jobs = new Counter({
    name: 'jogatina_jobs_total',
    help: 'Job attempts finished by this worker, by queue and outcome (a failed attempt may be retried)',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'jogatina_job_duration_seconds',
    help: 'Time a job attempt took, by queue and outcome',
    labelNames,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  new Gauge({
    name: 'jogatina_image_pool',
    help: 'The image threads: threads, queued (tasks waiting for a thread), completed, utilization (0 to 1 since start)',
    labelNames: ['measure'],
    registers: [registry],
    collect() {
      const usage = images.usage();
      this.set({ measure: 'threads' }, usage.threads);
      this.set({ measure: 'queued' }, usage.queued);
      this.set({ measure: 'completed' }, usage.completed);
      this.set({ measure: 'utilization' }, usage.utilization);
    },
  });
  return {
    registry,
    observeJob(queue, outcome, seconds) {
      jobs.inc({ queue, outcome });
      durations.observe({ queue, outcome }, seconds);
    },
  };
}
