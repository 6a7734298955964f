// How long the web process waits on PostgreSQL (docs/operations.md: Configuration, DATABASE_*_TIMEOUT_MS). Without a
// bound, a server that stops answering (frozen, or a network that drops packets without a reset) held
// every request for as long as it lasted. Three parts:
//   - the server's own `statement_timeout` and `idle_in_transaction_session_timeout`, sent as startup
//     options of the web's connections only: the release step, workers and operator commands open theirs
//     without them, so migrations, VACUUM and imports are never cut;
//   - the process's own watch on each statement, for a server that cannot cancel anything because it
//     does not run at all: 1 s after the server's limit, the connection is closed under the statement
//     (a connection whose statement was abandoned is in an unknown state, e.g. inside a transaction whose
//     ROLLBACK was never sent, and must never go back to the pool);
//   - the pool's wait for a connection (opening one included), so requests do not queue without end
//     behind connections that hang.
// Each ends in an error `isDatabaseUnreachable` knows (database-errors.ts): 503 with Retry-After.
import type { Knex } from 'knex';
import type { DatabaseTimeouts } from '../config.js';

export type { DatabaseTimeouts };

/** How much longer than the server's limit the process waits before it gives a statement up itself. */
const CLIENT_GRACE_MS = 1000;

/** The startup `options` that set the server's limits for a connection (PgBouncer may drop them: docs/operations.md). */
export function timeoutOptions(timeouts: DatabaseTimeouts | undefined): string {
  if (!timeouts) return '';
  return (
    ` -c statement_timeout=${timeouts.statementMs}` +
    ` -c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`
  );
}

/** How long the process waits for one statement's answer, or 0 for no limit. */
export function clientTimeoutMs(timeouts: DatabaseTimeouts | undefined): number {
  return timeouts && timeouts.statementMs > 0 ? timeouts.statementMs + CLIENT_GRACE_MS : 0;
}

/**
 * The options that hold a pg.Pool (prepared statements', pg-boss's) to the web's limits: its wait for a
 * connection, and its own watch on each statement (node-postgres gives the statement up and the pool's
 * `query` destroys the client rather than handing it out again). None without limits.
 */
export function pgPoolTimeouts(timeouts: DatabaseTimeouts | undefined): {
  connectionTimeoutMillis?: number;
  query_timeout?: number;
} {
  if (!timeouts) return {};
  const watchMs = clientTimeoutMs(timeouts);
  return { connectionTimeoutMillis: timeouts.acquireMs, ...(watchMs > 0 ? { query_timeout: watchMs } : {}) };
}

/** A connection whose transaction lifted the limit (`liftStatementTimeout`) until it ends. */
const LIFTED = Symbol('statement timeout lifted');
/** A connection whose `query` is already watched. */
const WATCHED = Symbol('watched');

interface PgConnection {
  query: (...args: unknown[]) => unknown;
  end(): Promise<void>;
  [LIFTED]?: boolean;
  [WATCHED]?: boolean;
  __knex__disposed?: unknown;
}

type Callback = (error: Error | null, result?: unknown) => void;

/** What ends a transaction, and with it a lifted limit (knex's own `COMMIT;` and `ROLLBACK`). */
const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK|END|ABORT)\b(?!\s+TO\b)/i;

/**
 * Watches every statement sent on `connection` (a node-postgres client of knex's pool): one that has no
 * answer `limitMs` after it was sent closes the connection, which fails the statement with "Connection
 * terminated" and keeps the connection from the pool. Streams (a `submit`-able query) are not watched.
 */
export function watchStatements(connection: PgConnection, limitMs: number): void {
  if (limitMs <= 0 || connection[WATCHED]) return;
  connection[WATCHED] = true;
  const query = connection.query;
  connection.query = function watched(this: PgConnection, ...args: unknown[]) {
    const first = args[0] as { submit?: unknown; text?: unknown } | string | undefined;
    if (first && typeof first === 'object' && typeof first.submit === 'function') return query.apply(this, args);
    let ends = false;
    let timer: NodeJS.Timeout | undefined;
    if (connection[LIFTED]) {
      // Only a lifted limit needs to know which statement ends the transaction: the web's other statements
      // skip reading their text.
      const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '';
      ends = ENDS_TRANSACTION.test(text);
    } else {
      timer = setTimeout(() => {
        connection.__knex__disposed = new Error(`no answer from the database in ${limitMs} ms`);
        // With a statement under way, node-postgres destroys the socket (the server, once it runs again,
        // sees the connection gone and rolls its transaction back).
        connection.end().catch(() => undefined);
      }, limitMs);
      timer.unref();
    }
    const done = () => {
      clearTimeout(timer);
      if (ends) delete connection[LIFTED];
    };
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (error: Error | null, result?: unknown) => {
        done();
        (last as Callback)(error, result);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function') result.then(done, done);
    else done();
    return result;
  };
}

/**
 * For the long reads the web process does on purpose (the catalog copy's): lifts the statement limit
 * for the rest of `trx`, on the server (SET LOCAL) and in the process's own watch. A no-op elsewhere.
 */
export async function liftStatementTimeout(trx: Knex.Transaction): Promise<void> {
  await trx.raw('SET LOCAL statement_timeout = 0');
  const connection = (await trx.client.acquireConnection()) as PgConnection;
  connection[LIFTED] = true;
}
