// The request's transaction: everything one request does in the database, in one transaction on one
// connection, so that whoever opened it can commit its own row (the Idempotency-Key's stored answer,
// api/middleware/idempotency.ts) together with the request's writes, or roll everything back.
//
// While a request runs inside one (`RequestTransaction.run`), this process's knex sends that request's
// statements to the transaction's connection, whatever knex object the code holds:
//   - a statement made on the root knex (or an Objection model) runs in the transaction, inside a
//     savepoint of its own, so one that fails (a unique violation a caller catches, a malformed id) undoes
//     itself only, as it did on its own connection, instead of aborting the whole transaction;
//   - `knex.transaction(...)` opens a savepoint: it commits into the request's transaction (visible to
//     the request's later statements, to nobody else until the end) and rolls back alone;
//   - prepared statements (prepared.ts) run on the same connection;
//   - a transaction asking for an isolation level or read-only mode (the catalog copy's read) runs on a
//     connection of its own, outside;
//   - work the request leaves running (not awaited) joins the transaction while it is open, and takes a
//     connection of its own once it has ended.
// Statements on the connection are sent one at a time, so a statement's savepoint is never interleaved
// with another statement of the same request sent in parallel.
//
// Work that a worker must see before the request can go on (a job whose answer the route waits for,
// jobs/request-reply.ts) cannot stay in one transaction: `commitEarly` commits what the request did so far
// with the job, the request waits outside any transaction, and `reopen` starts the next one. The opener's
// hooks record and check the point reached (the key's row), so a repeat can take the request up there.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/** A job handed to a worker at an early commit: the point a repeat of the request takes it up from. */
export interface HandOver {
  queue: string;
  jobId: string;
}

/** What the opener of a request transaction does at its early commits (api/middleware/idempotency.ts). */
interface RequestTransactionHooks {
  /** Runs in the transaction that hands `handOver` to a worker, before its commit. */
  beforeEarlyCommit?(trx: Knex.Transaction, handOver: HandOver): Promise<void>;
  /** Runs first in each transaction that `reopen` starts; what it throws ends the request. */
  afterReopen?(trx: Knex.Transaction): Promise<void>;
}

interface PgConnection {
  query: (...args: unknown[]) => unknown;
}

interface KnexClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  transaction(container: unknown, config?: TransactionConfig, outerTx?: unknown): unknown;
}

interface TransactionConfig {
  isolationLevel?: string;
  readOnly?: boolean;
}

/** The connection's statements of one request, sent one at a time. */
class Gate {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  run<T>(work: () => Promise<T>): Promise<T> {
    // A statement that took the connection before its phase ended and is sent after: it must not reach the
    // connection, which is committing or already serves someone else.
    const result = this.tail.then(() =>
      this.closed ? Promise.reject(new Error('a statement sent after its request transaction ended')) : work(),
    );
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Waits for every statement sent so far, those sent meanwhile included, then takes no more. */
  async close(): Promise<void> {
    for (let tail = this.tail; ; tail = this.tail) {
      await tail;
      if (tail === this.tail) break;
    }
    this.closed = true;
  }
}

/** The request transaction a connection serves right now, read by its gated `query`. */
const SERVING = Symbol('serving a request transaction');
/** Set once `gateConnection` has put its gate in front of the connection's `query`. */
const GATED = Symbol('gated');

type GatedConnection = PgConnection & { [SERVING]?: RequestTransaction; [GATED]?: boolean };

type Callback = (error: Error | null, result?: unknown) => void;

function isSubmittable(value: unknown): value is { once(event: string, listener: () => void): unknown } {
  return !!value && typeof value === 'object' && typeof (value as { submit?: unknown }).submit === 'function';
}

/**
 * Sends one statement through `gate`, whatever the calling form node-postgres was given (a promise, a
 * callback as last argument, or a stream-like submittable, which holds the gate until it ends).
 */
function gated(gate: Gate, args: unknown[], send: (args: unknown[]) => Promise<unknown>): unknown {
  const first = args[0];
  if (isSubmittable(first)) {
    void gate.run(
      () =>
        new Promise<void>((done) => {
          for (const event of ['end', 'error', 'close']) first.once(event, () => done());
          void send(args);
        }),
    );
    return first;
  }
  const last = args[args.length - 1];
  if (typeof last === 'function') {
    const callback = last as Callback;
    const rest = args.slice(0, -1);
    gate
      .run(() => send(rest))
      .then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    return undefined;
  }
  return gate.run(() => send(args));
}

/** The savepoint each of the request's own statements runs in (see the top of the file). */
const STATEMENT_SAVEPOINT = 'jogatina_statement';

export class RequestTransaction {
  /** The transaction of the current phase; null between an early commit and `reopen`. */
  private current: { trx: Knex.Transaction; connection: GatedConnection; proxy: PgConnection; gate: Gate } | null =
    null;
  private handedOver: HandOver | null = null;

  /** The opener's part in early commits (set before `run`). */
  hooks: RequestTransactionHooks = {};
  /** A repeat taking up a request whose first run handed this job over and then died (set before `run`). */
  resumeFrom: HandOver | null = null;
  /** Whether `resumeFrom` was taken up (this run reached the point where the first run handed it over). */
  resumed = false;
  /** What `afterReopen` threw: the request must not answer as if it had gone on. */
  interruption: unknown = null;

  constructor(readonly knex: Knex) {}

  /** The transaction of the current phase, for the opener's own statements. */
  get trx(): Knex.Transaction {
    if (!this.current) throw new Error('the request transaction is not open');
    return this.current.trx;
  }

  /** Whether a phase is open (false between an early commit and `reopen`, and once ended). */
  get open(): boolean {
    return this.current !== null;
  }

  /** The job handed over by this run at an early commit, if any. */
  get handOver(): HandOver | null {
    return this.handedOver;
  }

  async begin(): Promise<void> {
    // Opened outside any request transaction, on a connection of the pool's own.
    const trx = await outsideRequestTransaction(() => this.knex.transaction());
    const connection = (await trx.client.acquireConnection()) as GatedConnection;
    const gate = new Gate();
    gateConnection(connection);
    connection[SERVING] = this;
    this.current = { trx, connection, gate, proxy: this.statementProxy(connection, gate) };
  }

  /** Runs `work` with this request's statements in the transaction. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return storage.run(this, work);
  }

  /** Commits the current phase. Throws when the commit may not have happened. */
  commit(): Promise<void> {
    return this.end(true);
  }

  /** Rolls the current phase back; a connection already lost rolls back by itself. */
  async rollback(): Promise<void> {
    await this.end(false).catch(() => undefined);
  }

  /**
   * Commits what the request did so far together with `work` (run in a savepoint of its own) and the
   * opener's record of `handOver`; the request then runs outside any transaction until `reopen`.
   */
  async commitEarly(work: (trx: Knex.Transaction) => Promise<unknown>, handOver: HandOver): Promise<void> {
    const trx = this.trx;
    await trx.transaction((inner) => work(inner));
    await this.hooks.beforeEarlyCommit?.(trx, handOver);
    await this.commit();
    this.handedOver = handOver;
  }

  /**
   * A repeat taking up a request at its first run's hand-over: drops what this run did up to here (the
   * first run committed the same), and marks the hand-over as reached.
   */
  async abandon(): Promise<void> {
    await this.rollback();
    this.resumed = true;
    this.handedOver = this.resumeFrom;
  }

  /** Starts the next phase, after a wait outside any transaction. */
  async reopen(): Promise<void> {
    await this.begin();
    try {
      await this.hooks.afterReopen?.(this.trx);
    } catch (error) {
      // The phase stays open, so whatever the route still does (a clean-up in its catch) lands in it and
      // is rolled back with it by the opener, who reads `interruption` whatever the route answered.
      this.interruption = error;
      throw error;
    }
  }

  private async end(commit: boolean): Promise<void> {
    const current = this.current;
    if (!current) return;
    // Statements of the request still in flight go first; later ones (work the request left running)
    // find the transaction closed and take a connection of their own, or fail if they held this one.
    await current.gate.close();
    this.current = null;
    try {
      if (commit) {
        await current.trx.commit();
        // knex reports a failed COMMIT through the transaction's own promise, not commit()'s.
        await (current.trx as unknown as { executionPromise: Promise<unknown> }).executionPromise;
      } else {
        await current.trx.rollback();
      }
    } finally {
      if (current.connection[SERVING] === this) delete current.connection[SERVING];
    }
  }

  /** The connection as root-level statements see it: each statement in a savepoint of its own. */
  private statementProxy(connection: GatedConnection, gate: Gate): PgConnection {
    const own = (args: unknown[]) => sendRaw(connection, args) as Promise<unknown>;
    const query = (...args: unknown[]) => {
      if (isSubmittable(args[0])) return gated(gate, args, own);
      return gated(gate, args, async (statement) => {
        await own([`SAVEPOINT ${STATEMENT_SAVEPOINT}`]);
        try {
          const result = await own(statement);
          await own([`RELEASE SAVEPOINT ${STATEMENT_SAVEPOINT}`]);
          return result;
        } catch (error) {
          await own([`ROLLBACK TO SAVEPOINT ${STATEMENT_SAVEPOINT}; RELEASE SAVEPOINT ${STATEMENT_SAVEPOINT}`]).catch(
            () => undefined,
          );
          throw error;
        }
      });
    };
    const proxy = new Proxy(connection, {
      get(target, property) {
        if (property === 'query') return query;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    proxies.add(proxy);
    return proxy;
  }

  /** The connection root-level statements of the request use now, or null between phases. */
  get statementConnection(): PgConnection | null {
    return this.current?.proxy ?? null;
  }

  /** Sends one statement of a nested transaction (or the opener's) through the gate. */
  gatedQuery(connection: GatedConnection, args: unknown[]): unknown {
    const gate = this.current?.connection === connection ? this.current.gate : null;
    if (!gate) return sendRaw(connection, args);
    return gated(gate, args, (statement) => sendRaw(connection, statement) as Promise<unknown>);
  }
}

const storage = new AsyncLocalStorage<RequestTransaction>();
const proxies = new WeakSet<object>();

const ORIGINAL = Symbol('original query');

/** Sends a statement with the original `query` of a gated connection, in whatever form `args` ask for. */
function sendRaw(connection: GatedConnection, args: unknown[]): unknown {
  const original = (connection as GatedConnection & { [ORIGINAL]: (...a: unknown[]) => unknown })[ORIGINAL];
  return original.apply(connection, args);
}

/**
 * Puts a gate in front of a connection's `query`, once: while the connection serves a request
 * transaction, every statement on it (knex's BEGIN and COMMIT, nested transactions' savepoints and
 * statements) waits its turn behind the request's own.
 */
function gateConnection(connection: GatedConnection): void {
  if (connection[GATED]) return;
  const target = connection as GatedConnection & { [ORIGINAL]: (...a: unknown[]) => unknown };
  target[ORIGINAL] = connection.query;
  const gatedQuery = function (this: GatedConnection, ...args: unknown[]) {
    const serving = connection[SERVING];
    if (!serving) return sendRaw(connection, args);
    return serving.gatedQuery(connection, args);
  };
  connection[GATED] = true;
  connection.query = gatedQuery;
}

/** The request transaction of the code running now on `knex`, when one is open. */
export function currentRequestTransaction(knex?: Knex): RequestTransaction | null {
  const unit = storage.getStore();
  if (!unit || (knex && unit.knex.client !== knex.client)) return null;
  return unit;
}

/** Whether statements made on `knex` now go to a request transaction's connection (prepared.ts). */
export function inRequestTransaction(knex: Knex): boolean {
  return currentRequestTransaction(knex)?.statementConnection != null;
}

/**
 * Runs `work` outside the request transaction, on connections of the pool's own (autocommitted). A knex
 * builder runs when it is awaited, not when it is made, so it is awaited here, inside the exit: handed back
 * unawaited, it would run in the caller's context, on the request's transaction.
 */
export function outsideRequestTransaction<T>(work: () => T | PromiseLike<T>): Promise<T> {
  return storage.exit(async () => await work());
}

const installed = new WeakSet<object>();

/** Lets `knex` send a request's statements to its request transaction (once per knex; knex.ts). */
export function installRequestTransactions(knex: Knex): void {
  const client = knex.client as unknown as KnexClient;
  if (installed.has(client)) return;
  installed.add(client);
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  const transaction = client.transaction.bind(client);
  const active = () => currentRequestTransaction(knex);
  client.acquireConnection = () => {
    const connection = active()?.statementConnection;
    return connection ? Promise.resolve(connection) : acquire();
  };
  client.releaseConnection = (connection: unknown) =>
    proxies.has(connection as object) ? Promise.resolve() : release(connection);
  // knex.transaction() on the root: a transaction of nested ones (a savepoint) in the request's.
  client.transaction = (container: unknown, config?: TransactionConfig, outerTx?: unknown) => {
    const unit = active();
    if (!unit || !unit.open || outerTx) return transaction(container, config, outerTx);
    if (config?.isolationLevel || config?.readOnly) {
      return storage.exit(() => transaction(container, config, outerTx));
    }
    const trx = unit.trx as unknown as { transaction(container: unknown, config?: TransactionConfig): unknown };
    return trx.transaction(container, config);
  };
}
