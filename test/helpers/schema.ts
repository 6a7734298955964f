import { db } from '../../shared/platform/db/knex.js';

/** Tables with a foreign key to accounts: the tables that hold an account's rows. */
export async function accountOwnedTables(): Promise<string[]> {
  const { rows } = await db().raw(`
    SELECT DISTINCT tc.table_name AS table
    FROM information_schema.table_constraints tc
    JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
    WHERE tc.constraint_type = 'FOREIGN KEY' AND ccu.table_name = 'accounts' AND tc.table_schema = 'public'`);
  return rows.map((row: { table: string }) => row.table).sort();
}
