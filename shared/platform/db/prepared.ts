// Runs a hot statement as a named prepared statement: PostgreSQL parses and plans it once per connection
// instead of on every call, and knex's query building is skipped. For the statements on every request's
// path (key and session resolution, the person lookup, library pages, the activity feed), written with
// $1-style placeholders by our own code.
//
// They run on a pool of their own whose connections use generic plans only. Left to itself, PostgreSQL
// compares a generic plan's estimate with custom plans and, for a feed query of many OR'd lookups, keeps
// re-planning every call (2 to 5 ms of planning for 1 ms of work). A statement here is written so that its
// text carries what its plan depends on (which filters are present, the page size), so the generic plan
// is the right one. knex's own statements stay on knex's pool with PostgreSQL's default choice.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { inRequestTransaction } from './request-transaction.js';
import { pgPoolTimeouts, timeoutOptions, type DatabaseTimeouts } from './timeouts.js';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

const pools = new WeakMap<Knex, pg.Pool>();

/** Gives `knex` a pool for prepared statements on the same database, ended when knex is destroyed. */
export function attachPreparedPool(
  knex: Knex,
  connectionString: string,
  max: number,
  timeouts?: DatabaseTimeouts,
): void {
  const pool = new pg.Pool({
    connectionString,
    application_name: 'jogatina',
    options: `-c jit=off -c plan_cache_mode=force_generic_plan${timeoutOptions(timeouts)}`,
    max,
    idleTimeoutMillis: 30_000,
    // The web's limits (timeouts.ts).
    ...pgPoolTimeouts(timeouts),
  });
  // A connection that breaks while idle is dropped by the pool; the next query opens another.
  pool.on('error', () => undefined);
  pools.set(knex, pool);
  // knex's own destroy is read-only; its client's is where the pool is ended, so ours ends with it.
  const client = knex.client as { destroy(callback?: unknown): Promise<unknown> };
  const destroy = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    pools.delete(knex);
    await pool.end();
    return destroy(callback);
  };
}

/**
 * The name of a statement whose text varies with its shape (which filters, which page size): the prefix
 * and a hash of the text, so each shape is prepared once per connection under a name of its own.
 */
export function statementName(prefix: string, text: string): string {
  return `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
}

export async function queryPrepared(
  knex: Knex,
  name: string,
  text: string,
  values: unknown[],
): Promise<Record<string, unknown>[]> {
  const pool = knex.isTransaction || inRequestTransaction(knex) ? undefined : pools.get(knex);
  if (pool) return (await pool.query({ name, text, values })).rows;
  // Inside a transaction, the request's own included (request-transaction.ts), the statement must run on
  // the transaction's own connection: it sees what the transaction wrote.
  const connection = (await knex.client.acquireConnection()) as PgConnection;
  try {
    return (await connection.query({ name, text, values })).rows;
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
