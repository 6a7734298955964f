// The email outbox: every message the service sends is a row here first, written in the same
// transaction as the change that causes it, and delivered by the `email.send` job.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_outbox', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('to_address').notNullable();
    table.text('subject').notNullable();
    table.text('text_body').notNullable();
    table.text('html_body');
    /** What caused it, e.g. `auth.magic_link`, for operators reading the outbox. */
    table.text('kind').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('sent_at', { useTz: true });
    table.integer('attempts').notNullable().defaultTo(0);
    table.text('last_error');
    table.check('char_length(subject) between 1 and 998', [], 'email_outbox_subject_length');
  });
  await knex.raw('CREATE INDEX email_outbox_unsent ON email_outbox (created_at) WHERE sent_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_outbox');
}
