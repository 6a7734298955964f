// The worker process (Procfile `worker`): consumes every declared queue until SIGTERM.
import { configOrExit } from '../shared/config.js';
import { openDatabase, closeDatabase } from '../shared/db/knex.js';
import { createMailTransport } from '../shared/email/transport.js';
import { startBoss, ensureQueues, stopBoss } from '../shared/jobs/boss.js';
import { Signals } from '../shared/jobs/signals.js';
import { flushLogs, logger } from '../shared/logger.js';
import { QUEUES } from '../shared/queue.js';
import { exitOnSignals } from '../shared/shutdown.js';
import { jobHandlers } from './jobs/index.js';
import { missingHandlers, subscribeAll } from './worker.js';

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
const boss = await startBoss(config.databaseUrl, 'worker', log);
await ensureQueues(boss, QUEUES);
const signals = new Signals(config.databaseUrl, log);
const mail = createMailTransport({ smtpUrl: config.smtpUrl, mailDir: config.mailDir, from: config.mailFrom });
// Before announcing readiness: a SIGTERM from then on must always find its handler.
exitOnSignals(log, config.shutdownTimeoutMs, async () => {
  await stopBoss(config.shutdownTimeoutMs);
  await signals.close();
  mail.close();
  await closeDatabase();
});

await subscribeAll({ boss, signals, services: { knex, log, mail }, queues: QUEUES, handlers: jobHandlers });
log.info({ queues: Object.keys(QUEUES) }, 'worker ready');
flushLogs();
