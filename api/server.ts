// The web process (Procfile `web`): serves the API until SIGTERM, then finishes what is in flight.
import http from 'node:http';
import type PgBoss from 'pg-boss';
import { configOrExit } from '../shared/platform/config.js';
import { openDatabase, closeDatabase } from '../shared/platform/db/knex.js';
import { exitUnlessMigrated } from '../shared/platform/db/migrations.js';
import { ensureQueues, startBoss, stopBoss } from '../shared/platform/jobs/boss.js';
import { JobReplies } from '../shared/platform/jobs/request-reply.js';
import { Signals } from '../shared/platform/jobs/signals.js';
import { ensureSigningKeys } from '../shared/identity/signing-keys.js';
import { flushLogs, logger } from '../shared/platform/logger.js';
import { QUEUES } from '../shared/platform/jobs/queue.js';
import { exitOnSignals } from '../shared/platform/shutdown.js';
import { createApp } from './app.js';
import { answerClientErrors } from './client-error.js';
import { closeServer } from './close-server.js';
import { PORT_IN_USE_EXIT } from './port-in-use.js';
import { endEventStreams } from './event-stream.js';
import { InFlight } from './in-flight.js';
import { readCatalogCopy } from '../shared/catalog/copy-browse.js';

const config = configOrExit();
const log = logger().child({ process: 'web' });
if (!config.databaseUrl) {
  console.error('DATABASE_URL is not set: run `npm start` for the one-machine mode, or set it.');
  process.exit(1);
}

// The web's limits on the database (DATABASE_*_TIMEOUT_MS): a request answers 503 while it does not answer.
const knex = openDatabase(config.databaseUrl, config.databasePoolMax, { timeouts: config.databaseTimeouts });
await exitUnlessMigrated(knex, 'web');
// A first identity key set when there is none (spec: Key set; `npm run op -- keys rotate` rotates it).
await ensureSigningKeys(knex, config.secret);
let queue: PgBoss | null = await startBoss(config.databaseUrl, 'api', log, config.databaseTimeouts);
await ensureQueues(queue, QUEUES);

const signals = new Signals(config.databaseUrl, log);
const replies = new JobReplies(signals, knex, log);
const app = createApp({ knex, log, config, boss: () => queue, replies, trustProxy: config.trustProxy });
const requests = new InFlight();
const server = http.createServer(requests.track(app.callback()));
answerClientErrors(server);
server.on('error', (error: NodeJS.ErrnoException) => {
  // A taken or forbidden port is the operator's to fix: one line, not a stack.
  const what = error.code === 'EADDRINUSE' ? 'is in use by another program' : `cannot be opened (${error.code})`;
  console.error(`web: port ${config.port} on ${config.host} ${what}: set PORT to a free port`);
  process.exit(error.code === 'EADDRINUSE' ? PORT_IN_USE_EXIT : 1);
});
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, public_url: config.publicUrl }, 'listening');
  flushLogs();
  // A process manager that waits for readiness (PM2's wait_ready, see ecosystem.config.cjs) hears it here.
  process.send?.('ready');
  // The catalog's copy for browsing (shared/catalog/copy-*.ts), read now rather than at the first browse;
  // until it is in, the database answers.
  const started = Date.now();
  void readCatalogCopy(knex).then((copy) =>
    copy
      ? log.info({ games: copy.size, version: copy.version, ms: Date.now() - started }, 'catalog copy read')
      : log.warn('catalog copy not read: browsing reads the database until it is'),
  );
});

exitOnSignals(log, config.shutdownTimeoutMs, async () => {
  const deadline = Date.now() + config.shutdownTimeoutMs;
  // Streams would hold their connections until the deadline; ended, their clients reconnect elsewhere.
  endEventStreams();
  await closeServer(server, config.shutdownTimeoutMs, { drain: true });
  // Handlers whose clients went away still run: the database stays until they end (or the deadline).
  if (!(await requests.idle(deadline - Date.now()))) {
    log.warn({ running: requests.count }, 'requests still running at the stop deadline');
  }
  // The last views gathered for the history, before the database goes.
  await app.context.services.views.flush();
  queue = null;
  await stopBoss(config.shutdownTimeoutMs);
  await signals.close();
  await closeDatabase();
});
