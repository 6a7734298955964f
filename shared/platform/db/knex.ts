// One knex pool per process, bound to Objection so models and raw queries share connections.
import knexFactory, { type Knex } from 'knex';
import { Model } from 'objection';
import pg from 'pg';
import { attachPreparedPool } from './prepared.js';
import { installRequestTransactions } from './request-transaction.js';
import { clientTimeoutMs, timeoutOptions, watchStatements, type DatabaseTimeouts } from './timeouts.js';

export type { Knex };

// Read bigint counts (COUNT(*) is bigint) as numbers: our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
// Keep calendar dates (birth dates) as 'YYYY-MM-DD' text: a Date would shift them by the server's zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export interface KnexOptions {
  /**
   * The web process's limits on the database (timeouts.ts). Unset (workers, the release step, operator
   * commands, tests' own pools): no statement limit, and the pool waits 10 s for a connection.
   */
  timeouts?: DatabaseTimeouts;
}

export function createKnex(connectionString: string, poolMax = 10, options: KnexOptions = {}): Knex {
  const { timeouts } = options;
  const watchMs = clientTimeoutMs(timeouts);
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString,
      application_name: 'jogatina',
      // JIT compiling pays off for long analytic queries, not ours: a feed query with per-row lookups has a
      // large estimated cost and would spend half a second compiling to read fifty rows.
      options: `-c jit=off${timeoutOptions(timeouts)}`,
      // Opening a connection to a server that accepts it but never answers would otherwise wait forever.
      ...(timeouts ? { connectionTimeoutMillis: timeouts.acquireMs } : {}),
    },
    pool: {
      min: 0,
      max: poolMax,
      afterCreate: (connection: Parameters<typeof watchStatements>[0], done: (error?: Error) => void) => {
        watchStatements(connection, watchMs);
        done();
      },
    },
    acquireConnectionTimeout: timeouts?.acquireMs ?? 10000,
    // Connection failures reach the caller as errors; knex's own console lines would only repeat them.
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
  });
  attachPreparedPool(knex, connectionString, poolMax, timeouts);
  if (timeouts && timeouts.statementMs > 0) liftForStreams(knex, timeouts.statementMs);
  installRequestTransactions(knex);
  return knex;
}

/**
 * A streamed read (the account export) lasts as long as its client takes to download it, and the server
 * counts a cursor's time until its end: the statement limit, meant for a request's work, is lifted while
 * it streams and set again after (the process's own watch never covers streams).
 */
function liftForStreams(knex: Knex, statementMs: number): void {
  const client = knex.client as unknown as {
    _stream(connection: unknown, ...rest: unknown[]): Promise<unknown>;
  };
  const stream = client._stream.bind(client);
  const set = (connection: unknown, ms: number) =>
    (connection as { query(text: string): Promise<unknown> }).query(
      `SELECT set_config('statement_timeout', '${ms}', false)`,
    );
  client._stream = async (connection: unknown, ...rest: unknown[]) => {
    await set(connection, 0);
    try {
      return await stream(connection, ...rest);
    } finally {
      // A connection that fails here is broken, and the pool drops it.
      await set(connection, statementMs).catch(() => undefined);
    }
  };
}

let current: Knex | null = null;

/** Opens the process's pool and binds Objection models to it. */
export function openDatabase(connectionString: string, poolMax?: number, options?: KnexOptions): Knex {
  if (current) throw new Error('the database is already open in this process');
  current = createKnex(connectionString, poolMax, options);
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
