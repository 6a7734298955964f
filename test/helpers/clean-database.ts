// Each test file starts from empty tables (migrations stay). Call `useCleanDatabase()` inside a
// describe that writes to the database.
import { searchTotals } from '../../shared/catalog/game-search.js';
import { forgetGenreNames } from '../../shared/catalog/games.js';
import { clearSearchCountCache } from '../../shared/catalog/search-counts.js';
import { resetArcadeSettings } from '../../shared/arcade/settings.js';
import { db } from '../../shared/platform/db/knex.js';
import { forgetSigner } from '../../shared/identity/signing-keys.js';

export async function truncateAll(): Promise<void> {
  const knex = db();
  const { rows } = await knex.raw<{ rows: { tablename: string }[] }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'knex_migrations%'",
  );
  // Reference rows a migration created stay, set back to how the migration left them. The catalog's
  // version only grows (truncating the games moves it), so a copy of the old games is never taken for new.
  const kept = new Set(['arcade_settings', 'arcade_terms', 'catalog_state']);
  const tables = rows.filter((row) => !kept.has(row.tablename)).map((row) => `public."${row.tablename}"`);
  tables.push('pgboss.job', 'pgboss.archive');
  await knex.raw(`TRUNCATE ${tables.join(', ')} CASCADE`);
  await resetArcadeSettings(knex);
  forgetSigner();
  // What the process remembers of the old rows goes with them.
  searchTotals.clear();
  clearSearchCountCache();
  forgetGenreNames();
}

export function useCleanDatabase(): void {
  before(truncateAll);
}
