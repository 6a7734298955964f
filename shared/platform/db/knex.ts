// One knex pool per process, bound to Objection so models and raw queries share connections.
import knexFactory, { type Knex } from 'knex';
import { Model } from 'objection';
import pg from 'pg';
import { attachPreparedPool } from './prepared.js';

export type { Knex };

// Read bigint counts (COUNT(*) is bigint) as numbers: our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
// Keep calendar dates (birth dates) as 'YYYY-MM-DD' text: a Date would shift them by the server's zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export function createKnex(connectionString: string, poolMax = 10): Knex {
  const knex = knexFactory({
    client: 'pg',
    // JIT compiling pays off for long analytic queries, not ours: a feed query with per-row lookups has a
    // large estimated cost and would spend half a second compiling to read fifty rows.
    connection: { connectionString, application_name: 'jogatina', options: '-c jit=off' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10000,
    // Connection failures reach the caller as errors; knex's own console lines would only repeat them.
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
  });
  attachPreparedPool(knex, connectionString, poolMax);
  return knex;
}

let current: Knex | null = null;

/** Opens the process's pool and binds Objection models to it. */
export function openDatabase(connectionString: string, poolMax?: number): Knex {
  if (current) throw new Error('the database is already open in this process');
  current = createKnex(connectionString, poolMax);
  Model.knex(current);
  return current;
}

export function db(): Knex {
  if (!current) throw new Error('the database is not open yet (call openDatabase at process start)');
  return current;
}

export async function closeDatabase(): Promise<void> {
  const pool = current;
  current = null;
  if (pool) await pool.destroy();
}
