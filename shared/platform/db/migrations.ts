// Runs the knex migrations of db/migrations. knex's own file loader does not understand TypeScript
// under ESM, so the files are listed and imported here; a migration's name is its file name without the
// extension, so the same history holds whether the files run as .ts or are compiled to .js.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

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

/** Applies every pending migration; answers the names applied in this run. */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig())) as [number, string[]];
  return applied;
}

export async function rollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback(migrationConfig(), true);
}
