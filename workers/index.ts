// The worker process (Procfile `worker`): consumes every declared queue until SIGTERM.
import { configOrExit } from '../shared/platform/config.js';
import { openDatabase, closeDatabase } from '../shared/platform/db/knex.js';
import { exitUnlessMigrated } from '../shared/platform/db/migrations.js';
import { createMailTransport } from '../shared/platform/email/transport.js';
import { startBoss, ensureQueues, stopBoss } from '../shared/platform/jobs/boss.js';
import { Signals } from '../shared/platform/jobs/signals.js';
import { flushLogs, logger } from '../shared/platform/logger.js';
import { ImagePool } from './images/image-pool.js';
import { QUEUES, SCHEDULES } from '../shared/platform/jobs/queue.js';
import { exitOnSignals } from '../shared/platform/shutdown.js';
import { jobHandlers } from './jobs/index.js';
import { createJobMetrics } from './job-metrics.js';
import { serveMetrics } from './metrics-server.js';
import { missingHandlers, subscribeAll, type RunningWorker } from './worker.js';
import { startEventDispatcher, type EventDispatcher } from './event-dispatcher.js';
import { createMediaStorage } from '../shared/platform/storage/create-media-storage.js';
import { closePooledClients } from '../shared/platform/net/pinned-client.js';

const config = configOrExit();
const log = logger().child({ process: 'worker' });

const missing = missingHandlers(QUEUES, jobHandlers);
if (missing.length > 0) {
  log.fatal({ queues: missing }, 'declared queues without a handler');
  console.error(`The worker has no handler for declared queue(s): ${missing.join(', ')}`);
  process.exit(1);
}
if (!config.databaseUrl) {
  console.error('DATABASE_URL is not set: run `npm start` for the one-machine mode, or set it.');
  process.exit(1);
}

const knex = openDatabase(config.databaseUrl, config.databasePoolMax);
await exitUnlessMigrated(knex, 'worker');
const boss = await startBoss(config.databaseUrl, 'worker', log);
await ensureQueues(boss, QUEUES);
const signals = new Signals(config.databaseUrl, log);
const mail = createMailTransport({ smtpUrl: config.smtpUrl, mailDir: config.mailDir, from: config.mailFrom });
const media = createMediaStorage(config);
const images = new ImagePool(config.images.threads, {
  model: config.images.screeningModel,
  threshold: config.images.screeningThreshold,
});
const metrics = createJobMetrics(knex, Object.keys(QUEUES), images);
const metricsServer =
  config.metricsToken && config.workerMetricsPort !== null
    ? await serveMetrics(metrics.registry, config.metricsToken, config.host, config.workerMetricsPort)
    : null;
let running: RunningWorker | null = null;
let dispatcher: EventDispatcher | null = null;
// Before announcing readiness: a SIGTERM from then on must always find its handler.
exitOnSignals(log, config.shutdownTimeoutMs, async () => {
  const deadline = Date.now() + config.shutdownTimeoutMs;
  // The slot consumers (data events) first: they complete their jobs through pg-boss, which its stop closes.
  await running?.stop(config.shutdownTimeoutMs);
  await dispatcher?.stop();
  await stopBoss(Math.max(1000, deadline - Date.now()));
  await metricsServer?.close();
  // After the jobs: connections kept open to game servers (data events) close now, not when they idle out.
  await closePooledClients();
  await signals.close();
  await images.close();
  mail.close();
  await closeDatabase();
});

// One image job per image thread.
const queues = { ...QUEUES, 'image.process': { ...QUEUES['image.process'], concurrency: config.images.threads } };
running = await subscribeAll({
  boss,
  signals,
  services: { knex, log, mail, media, images },
  queues,
  handlers: jobHandlers,
  metrics,
});
dispatcher = await startEventDispatcher(signals, knex, log);
for (const { queue, cron } of SCHEDULES) await boss.schedule(queue, cron, {}, { tz: 'UTC' });
log.info({ queues: Object.keys(QUEUES), metrics_port: metricsServer?.port ?? null }, 'worker ready');
flushLogs();
