// Idempotency keys (issue #21, README: API notes): a POST under /api/v1 sent with `Idempotency-Key` takes
// a row here before it runs, and its answer is kept 24 hours for a repeat of the same request to replay.
// `scope` is the SHA-256 of who called (the account, and the key when a key called), the method, the path
// and the key, so one unique index makes taking a key one atomic statement whatever the path's length.
// `fingerprint` is the SHA-256 of the request (method, path, query, canonical body): the same key with
// another request is refused. The answer's body is sealed (it may hold a new API key's token).
// There is no foreign key to accounts on purpose: a row lives 24 hours at most (the retention purge
// deletes it after `expires_at`), holds nothing readable, and is not an account's data to export.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.bigIncrements('id').primary();
    t.text('scope').notNullable().unique();
    t.uuid('account_id').notNullable();
    /** `session` for the account's sessions, `key:<id>` for one API key. */
    t.text('caller').notNullable();
    t.text('method').notNullable();
    t.text('path').notNullable();
    t.text('key').notNullable();
    t.text('fingerprint').notNullable();
    t.text('state').notNullable();
    t.integer('status');
    t.jsonb('headers');
    t.text('body');
    /** When the request that holds the key took it; a hold older than the lease is an abandoned one. */
    t.timestamp('locked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw(
    "ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state CHECK (state IN ('in_progress', 'done'))",
  );
  await knex.raw(
    "ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_answer CHECK ((state = 'done') = (status IS NOT NULL))",
  );
  await knex.raw('CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at)');
  await knex.raw('CREATE INDEX idempotency_keys_account ON idempotency_keys (account_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
