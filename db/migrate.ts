// The release step (Procfile `release`): applies pending migrations and installs or updates the queue
// schema and queues, once, before new web and worker processes start. Without DATABASE_URL it works on the
// data folder's embedded PostgreSQL (one-machine mode, `npm run migrate`), which production never uses.
import { configOrExit } from '../shared/platform/config.js';
import { closeDatabase } from '../shared/platform/db/knex.js';
import { describeFailure, openProjectDatabase, type ProjectDatabase } from '../shared/platform/db/with-database.js';
import { ensureQueues, startBoss, stopBoss } from '../shared/platform/jobs/boss.js';
import { logger } from '../shared/platform/logger.js';
import { QUEUES } from '../shared/platform/jobs/queue.js';

const config = configOrExit();
if (!config.databaseUrl && config.env === 'production') {
  console.error('DATABASE_URL is not set: the release step migrates the database the processes will use.');
  process.exit(1);
}
let database: ProjectDatabase | null = null;
try {
  database = await openProjectDatabase(config);
  const { applied, url } = database;
  console.log(
    applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database schema is up to date',
  );
  const boss = await startBoss(url, 'tool', logger());
  await ensureQueues(boss, QUEUES);
  await stopBoss(5000);
  console.log(`queues ready: ${Object.keys(QUEUES).join(', ')}`);
} catch (error) {
  console.error(`migration failed: ${describeFailure(error)}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
  await database?.embedded?.stop();
}
// The embedded server's module, loaded without DATABASE_URL, hooks the process's exit (with code 0).
if (!config.databaseUrl) process.exit(process.exitCode ?? 0);
