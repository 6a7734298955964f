// Runs a hot statement as a named prepared statement on a connection of knex's pool: PostgreSQL parses
// and plans it once per connection instead of on every call, and knex's query building is skipped. For
// the few statements on every request's path (key resolution), written with $1-style placeholders.
import type { Knex } from 'knex';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

export async function queryPrepared(
  knex: Knex,
  name: string,
  text: string,
  values: unknown[],
): Promise<Record<string, unknown>[]> {
  const connection = (await knex.client.acquireConnection()) as PgConnection;
  try {
    return (await connection.query({ name, text, values })).rows;
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
