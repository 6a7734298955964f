// The database a benchmark runs against: a fresh database on DATABASE_URL's server when set, else an
// embedded PostgreSQL in a temporary folder; migrated, and dropped at the end.
import { createTestDatabase } from '../../test/helpers/test-database.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { migrateLatest } from '../../shared/platform/db/migrations.js';

export async function benchDatabase(): Promise<{ url: string; where: string; drop(): Promise<void> }> {
  const database = await createTestDatabase(process.env.DATABASE_URL);
  const knex = createKnex(database.url, 2);
  await migrateLatest(knex);
  await knex.destroy();
  return database;
}
