// Runs the knex migrations of db/migrations. knex's own file loader does not understand TypeScript
// under ESM, so the files are listed and imported here; a migration's name is its file name without the
// extension, so the same history holds whether the files run as .ts or are compiled to .js.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { StartFailure } from '../start-failure.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../../db/migrations/', import.meta.url));
const NAME = /^\d{14}_[a-z0-9_]+\.(ts|js)$/;

interface MigrationFile {
  name: string;
  file: string;
}

class TypeScriptMigrationSource implements Knex.MigrationSource<MigrationFile> {
  constructor(private readonly dir: string) {}

  async getMigrations(): Promise<MigrationFile[]> {
    return readdirSync(this.dir)
      .filter((file) => NAME.test(file) && !file.endsWith('.d.ts'))
      .sort()
      .map((file) => ({ name: file.replace(/\.(ts|js)$/, ''), file: path.join(this.dir, file) }));
  }

  getMigrationName(migration: MigrationFile): string {
    return migration.name;
  }

  async getMigration(migration: MigrationFile): Promise<Knex.Migration> {
    return (await import(pathToFileURL(migration.file).href)) as Knex.Migration;
  }
}

export function migrationConfig(dir = MIGRATIONS_DIR): Knex.MigratorConfig {
  return { migrationSource: new TypeScriptMigrationSource(dir), tableName: 'knex_migrations' };
}

/**
 * Applies every pending migration; answers the names applied in this run. A database that holds a migration
 * this build lacks was migrated by a newer version: that is refused in one line naming it (knex would say
 * its migration folder is corrupt).
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const known = new Set(await buildMigrationNames());
  const unknown = [...(await appliedMigrations(knex))].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new StartFailure(
      `the database was migrated by a newer version of Jogatina (${unknown.join(', ')} is not in this code): ` +
        'run that version, or point DATABASE_URL or DATA_DIR at a database of this one',
    );
  }
  const [, applied] = (await knex.migrate.latest(migrationConfig())) as [number, string[]];
  if (applied.length > 0) await vacuumRewritten(knex);
  return applied;
}

/** Tables smaller than this are read whole faster than their map is worth a VACUUM at every release. */
const REWRITTEN_MIN_PAGES = 1000;

/**
 * A migration that rewrites a table (a stored column added, as catalog_language_bits adds to games) leaves it
 * with no page marked all-visible, and the index-only walks the catalog and the feed are read by then fetch
 * every row from the table, until a VACUUM, which autovacuum does not start for a rewrite. So after the
 * migrations that ran, each such table is vacuumed (with ANALYZE: its statistics went with it). VACUUM takes
 * no lock that stops reads or writes, and cannot run in a migration's transaction.
 */
export async function vacuumRewritten(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ name: string }> }>(
    `SELECT c.oid::regclass::text AS name FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relallvisible = 0
       AND c.relpages >= ${REWRITTEN_MIN_PAGES}`,
  );
  for (const { name } of rows) await knex.raw(`VACUUM (ANALYZE) ${name}`);
}

export async function rollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback(migrationConfig(), true);
}

const buildMigrations = new Map<string, Promise<MigrationFile[]>>();

/** This build's migrations, oldest first; a build's do not change while it runs, so read once per folder. */
async function buildMigrationNames(dir = MIGRATIONS_DIR): Promise<string[]> {
  if (!buildMigrations.has(dir)) buildMigrations.set(dir, new TypeScriptMigrationSource(dir).getMigrations());
  return (await buildMigrations.get(dir)!).map((migration) => migration.name);
}

/** The migrations the database has applied, by name (none when nothing was ever migrated into it). */
async function appliedMigrations(knex: Knex): Promise<Set<string>> {
  const { rows } = await knex
    .raw<{ rows: Array<{ name: string | null }> }>('SELECT name FROM knex_migrations')
    .catch((error: { code?: string }) => {
      // No history at all: a database nothing was ever migrated into.
      if (error.code === '42P01') return { rows: [] };
      throw error;
    });
  return new Set(rows.flatMap((row) => (row.name ? [row.name.replace(/\.(ts|js)$/, '')] : [])));
}

/**
 * The migrations of this build that the database has not applied yet, oldest first. Read with one SELECT
 * and no lock or table creation (knex's own list makes its tables), so a readiness probe may ask often.
 */
export async function pendingMigrations(knex: Knex, dir = MIGRATIONS_DIR): Promise<string[]> {
  const applied = await appliedMigrations(knex);
  return (await buildMigrationNames(dir)).filter((name) => !applied.has(name));
}

/**
 * The web and worker processes run against a database at this build's schema or not at all: with
 * migrations pending, they stop at start with one line naming the command (the release step of the
 * Procfile and the process manager runs it first).
 */
export async function exitUnlessMigrated(knex: Knex, processName: string): Promise<void> {
  const pending = await pendingMigrations(knex);
  if (pending.length === 0) return;
  console.error(
    `The ${processName} process needs the database migrated: ${pending.length} migration(s) pending, from ` +
      `${pending[0]}; run \`npm run migrate\` first.`,
  );
  await knex.destroy();
  process.exit(1);
}
