// The database a benchmark runs against: a fresh database on DATABASE_URL's server when set, else an
// embedded PostgreSQL in a temporary folder; migrated, and dropped at the end. BENCH_KEEP_DATABASE=1 keeps
// a database on DATABASE_URL's server and prints its address, to read its plans after the run.
import { createTestDatabase } from '../../test/helpers/test-database.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { migrateLatest } from '../../shared/platform/db/migrations.js';

export async function benchDatabase(): Promise<{ url: string; where: string; drop(): Promise<void> }> {
  const database = await createTestDatabase(process.env.DATABASE_URL);
  const knex = createKnex(database.url, 2);
  await migrateLatest(knex);
  await knex.destroy();
  if (process.env.BENCH_KEEP_DATABASE === '1' && process.env.DATABASE_URL) {
    return { ...database, drop: async () => console.log(`kept the database: ${database.url}`) };
  }
  return database;
}
