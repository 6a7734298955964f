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
  console.error('DATABASE_URL is not set: `npm start` migrates its embedded database by itself.');
  process.exit(1);
}
const knex = openDatabase(config.databaseUrl, 2);
try {
  const applied = await migrateLatest(knex);
  console.log(
    applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database schema is up to date',
  );
  const boss = await startBoss(config.databaseUrl, 'tool', logger());
  await ensureQueues(boss, QUEUES);
  await stopBoss(5000);
  console.log(`queues ready: ${Object.keys(QUEUES).join(', ')}`);
} catch (error) {
  console.error(`migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
