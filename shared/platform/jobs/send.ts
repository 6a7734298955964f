// Sending a job inside the caller's transaction: pg-boss runs its INSERT on the transaction's own
// connection, so a rollback leaves no job and a commit keeps it. The worker's wake-up NOTIFY rides in the
// same transaction and is delivered only at commit.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { boss } from './boss.js';
import { JOBS_SENT } from './signals.js';

interface PgConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export type SendOptions = Pick<PgBoss.SendOptions, 'startAfter' | 'singletonKey' | 'priority' | 'retryLimit'> & {
  id?: string;
};

/** A pg-boss executor bound to the connection that runs `trx`. */
export async function transactionExecutor(trx: Knex.Transaction): Promise<PgBoss.Db> {
  if (!trx.isTransaction) throw new Error('sendInTransaction needs a knex transaction, not the pool');
  // Inside a transaction knex hands back the transaction's own connection (and never releases it here).
  const connection = (await trx.client.acquireConnection()) as PgConnection;
  return { executeSql: (text, values) => connection.query(text, values) as Promise<{ rows: unknown[] }> };
}

/** Sends a job that exists only if `trx` commits; answers its id. */
export async function sendInTransaction(
  trx: Knex.Transaction,
  name: string,
  data: object,
  options: SendOptions = {},
): Promise<string> {
  const executor = await transactionExecutor(trx);
  const id = options.id ?? randomUUID();
  const sent = await boss().send(name, data, { ...options, id, db: executor });
  // null means a singleton key already holds a job: the existing one does the work.
  await executor.executeSql('SELECT pg_notify($1, $2)', [JOBS_SENT, name]);
  return sent ?? id;
}

/** One of many jobs sent together: its payload, and how long it waits before it may run (none by default). */
export interface BatchedJob {
  data: object;
  delaySeconds?: number;
}

/**
 * Sends many jobs of one queue that exist only if `trx` commits, in one statement and one wake-up (the
 * queue's own settings apply, as for one): a backlog of thousands queued one by one took seconds before the
 * first could start.
 */
export async function sendManyInTransaction(trx: Knex.Transaction, name: string, jobs: BatchedJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const executor = await transactionExecutor(trx);
  await boss().insert(
    jobs.map(({ data, delaySeconds }) => ({
      name,
      data,
      // pg-boss reads a start that does not end in Z as an interval from now.
      ...(delaySeconds ? { startAfter: `${delaySeconds} seconds` } : {}),
    })),
    { db: executor },
  );
  await executor.executeSql('SELECT pg_notify($1, $2)', [JOBS_SENT, name]);
}
