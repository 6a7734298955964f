// The data-event delivery log (issue #21): one row per delivery attempt of a data event, written by the
// attempt itself (shared/arcade/delivery.ts) and read by GET /account/apps/{id}/arcade/data-events. An
// attempt goes with its event (ON DELETE CASCADE); the retention purge deletes both after 30 days.
// `redelivery` marks an event the developer sent again: that one attempt decides it (no retry schedule).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('arcade_data_event_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('event_id').notNullable().references('arcade_data_events.id').onDelete('CASCADE');
    t.timestamp('attempted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    /** The receiver's status, or null when none answered (time-out, refused address). */
    t.integer('http_status');
    t.integer('duration_ms').notNullable();
    /** The outbound guard's refusal (`timeout`, `address_denied`...), or null when the receiver answered. */
    t.text('error');
    t.text('outcome').notNullable();
    t.check("outcome in ('delivered', 'retrying', 'failed')", [], 'arcade_data_event_attempts_outcome');
    t.index(['event_id', 'attempted_at']);
    t.index(['attempted_at']);
  });
  await knex.schema.alterTable('arcade_data_events', (t) => {
    t.boolean('redelivery').notNullable().defaultTo(false);
  });
  // The log reads a game's events newest first, whatever their status.
  await knex.raw('CREATE INDEX arcade_data_events_log ON arcade_data_events (app_id, created_at DESC, id DESC)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX arcade_data_events_log');
  await knex.schema.alterTable('arcade_data_events', (t) => {
    t.dropColumn('redelivery');
  });
  await knex.schema.dropTable('arcade_data_event_attempts');
}
