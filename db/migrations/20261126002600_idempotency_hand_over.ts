// Idempotency keys are settled in the request's own transaction (api/middleware/idempotency.ts): a row is
// written only with the answer, in the commit that holds the request's writes, and a key is held while
// its request runs by a transaction-level advisory lock, which ends with the holder's transaction (a
// crash included). The one row written before the answer is that of a request that hands a job to a
// worker and waits for it (uploads, URL checks): its first transaction commits with the job, and the row
// says which job (`job_queue`, `job_id`), so a repeat after the holder died takes the request up from that
// job instead of sending another. `locked_at` is kept for rows written by older processes.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.text('job_queue');
    t.uuid('job_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('job_queue');
    t.dropColumn('job_id');
  });
}
