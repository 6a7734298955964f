// Arcade's player side (spec: Grant, Player grants routes, Events; DECISIONS: Arcade): the per-game player
// id of an account, grants with their nickname, the plays (instances) that launches open, and the data
// events a game's server receives, recorded in the same transaction as the change that causes them.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The player id is per account and game: it survives a revoke and a new agreement, and only a
  // `forget=true` deletes it, so the next agreement gets a new one.
  await knex.schema.createTable('arcade_players', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable();
    t.uuid('player_id').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['account_id', 'app_id']);
  });

  await knex.schema.createTable('arcade_grants', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable().references('arcade_apps.app_id').onDelete('CASCADE');
    t.text('nickname').notNullable();
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{identify}');
    t.timestamp('granted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.primary(['account_id', 'app_id']);
  });

  // A play: what a launch opened, so a report can cite the release, origin and check of that moment.
  await knex.schema.createTable('arcade_instances', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable().references('arcade_apps.app_id').onDelete('CASCADE');
    t.text('mode').notNullable();
    t.uuid('release_id').references('arcade_releases.id').onDelete('SET NULL');
    t.integer('release_number');
    t.text('url').notNullable();
    t.text('origin').notNullable();
    t.uuid('check_id').references('arcade_checks.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("mode in ('live', 'test')", [], 'arcade_instances_mode');
    t.index(['account_id', 'app_id', 'created_at']);
  });

  await knex.schema.createTable('arcade_data_events', (t) => {
    // Also the token's `jti` and the `webhook-id` header: a receiver can drop repeats by it.
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('app_id').notNullable().references('arcade_apps.app_id').onDelete('CASCADE');
    t.uuid('player_id').notNullable();
    t.text('type').notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // An attempt in flight holds the event until then; a worker that dies lets it go when it passes.
    t.timestamp('leased_until', { useTz: true });
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.check("type in ('nickname_changed', 'grant_revoked', 'grant_forgotten')", [], 'arcade_data_events_type');
    t.check("status in ('pending', 'delivered', 'failed')", [], 'arcade_data_events_status');
  });
  // The app answers count pending and failed events, and the sweeper finds due ones: both by index.
  await knex.raw(
    "CREATE INDEX arcade_data_events_pending ON arcade_data_events (app_id, created_at) WHERE status = 'pending'",
  );
  await knex.raw(
    "CREATE INDEX arcade_data_events_due ON arcade_data_events (next_attempt_at) WHERE status = 'pending'",
  );
  await knex.raw("CREATE INDEX arcade_data_events_failed ON arcade_data_events (app_id) WHERE status = 'failed'");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['arcade_data_events', 'arcade_instances', 'arcade_grants', 'arcade_players']) {
    await knex.schema.dropTable(table);
  }
}
