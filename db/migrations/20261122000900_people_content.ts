// What people keep and show (issue 8's content model): library entries and owned copies, play sessions,
// reviews, lists with folders and their items, journeys (runs), screenshots, mineral balances,
// verification, and the activity feed. Catalog games are referred to by id without a foreign key: the
// catalog is re-imported from upstream and may lose a game that someone still holds.
import type { Knex } from 'knex';

const VISIBILITY = "visibility in ('PUBLIC', 'FOLLOWERS', 'PRIVATE')";

function owned(knex: Knex, table: Knex.CreateTableBuilder): void {
  table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
}

function stamps(knex: Knex, table: Knex.CreateTableBuilder): void {
  table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('library_entries', (t) => {
    owned(knex, t);
    t.integer('game_id').notNullable();
    t.text('status');
    t.boolean('playing').notNullable().defaultTo(false);
    t.boolean('backlog').notNullable().defaultTo(false);
    t.boolean('wishlist').notNullable().defaultTo(false);
    t.boolean('liked').notNullable().defaultTo(false);
    t.boolean('ignored').notNullable().defaultTo(false);
    t.smallint('rating');
    t.integer('platform_id');
    t.timestamp('finished_at', { useTz: true });
    stamps(knex, t);
    t.unique(['account_id', 'game_id']);
    t.check(
      "status IS NULL OR status in ('COMPLETED', 'PLAYING', 'ON_HOLD', 'DROPPED', 'BACKLOG', 'WISHLIST')",
      [],
      'library_entries_status_known',
    );
    t.check('rating IS NULL OR rating between 0 and 100', [], 'library_entries_rating_range');
    t.index(['account_id', 'updated_at']);
    t.index(['account_id', 'rating']);
    t.index(['game_id']);
  });

  await knex.schema.createTable('library_copies', (t) => {
    owned(knex, t);
    t.integer('game_id').notNullable();
    t.integer('platform_id');
    t.text('format').notNullable().defaultTo('digital');
    t.text('note').notNullable().defaultTo('');
    stamps(knex, t);
    t.check("format in ('digital', 'physical')", [], 'library_copies_format_known');
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('play_sessions', (t) => {
    owned(knex, t);
    t.integer('game_id').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    // Open while it runs (a live session); closed sessions carry their minutes.
    t.timestamp('ended_at', { useTz: true });
    t.integer('minutes');
    t.text('note').notNullable().defaultTo('');
    t.text('visibility').notNullable().defaultTo('PUBLIC');
    stamps(knex, t);
    t.check(VISIBILITY, [], 'play_sessions_visibility_known');
    t.check(
      '(ended_at IS NULL) = (minutes IS NULL) AND (ended_at IS NULL OR ended_at >= started_at)',
      [],
      'play_sessions_closed',
    );
    t.index(['account_id', 'started_at']);
    t.index(['game_id', 'started_at']);
  });

  await knex.schema.createTable('reviews', (t) => {
    owned(knex, t);
    t.integer('game_id').notNullable();
    t.text('body').notNullable();
    t.smallint('rating');
    t.boolean('contains_spoilers').notNullable().defaultTo(false);
    t.text('visibility').notNullable().defaultTo('PUBLIC');
    stamps(knex, t);
    t.check(VISIBILITY, [], 'reviews_visibility_known');
    t.check('rating IS NULL OR rating between 0 and 100', [], 'reviews_rating_range');
    t.index(['account_id', 'created_at']);
    t.index(['game_id', 'created_at']);
  });

  await knex.schema.createTable('list_folders', (t) => {
    owned(knex, t);
    t.text('public_id').notNullable().unique();
    t.text('name').notNullable();
    stamps(knex, t);
    t.index(['account_id']);
  });

  await knex.schema.createTable('lists', (t) => {
    owned(knex, t);
    t.text('public_id').notNullable().unique();
    t.uuid('folder_id').references('list_folders.id').onDelete('SET NULL');
    t.text('title').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('visibility').notNullable().defaultTo('PUBLIC');
    // `tier`: a tier list, its board of ranked games in list_items.tier.
    t.text('mode').notNullable().defaultTo('list');
    t.integer('likes').notNullable().defaultTo(0);
    t.integer('preview_count').notNullable().defaultTo(0);
    stamps(knex, t);
    t.check(VISIBILITY, [], 'lists_visibility_known');
    t.check("mode in ('list', 'ranked', 'tier')", [], 'lists_mode_known');
    t.index(['account_id', 'updated_at']);
  });

  await knex.schema.createTable('list_items', (t) => {
    t.uuid('list_id').notNullable().references('lists.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.integer('game_id').notNullable();
    t.text('tier');
    t.primary(['list_id', 'position']);
  });

  await knex.schema.createTable('journeys', (t) => {
    owned(knex, t);
    t.integer('game_id').notNullable();
    t.text('title').notNullable().defaultTo('');
    t.text('visibility').notNullable().defaultTo('PUBLIC');
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    stamps(knex, t);
    t.check(VISIBILITY, [], 'journeys_visibility_known');
    t.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('screenshots', (t) => {
    owned(knex, t);
    t.text('public_id').notNullable().unique();
    t.integer('game_id');
    t.text('description').notNullable().defaultTo('');
    t.text('visibility').notNullable().defaultTo('PUBLIC');
    t.boolean('contains_spoilers').notNullable().defaultTo(false);
    t.boolean('sensitive').notNullable().defaultTo(false);
    // Set by moderation: the capture counts nowhere from then on.
    t.timestamp('removed_at', { useTz: true });
    t.text('image_key').notNullable();
    t.integer('image_width').notNullable();
    t.integer('image_height').notNullable();
    t.text('thumbnail_key');
    t.integer('thumbnail_width');
    t.integer('thumbnail_height');
    stamps(knex, t);
    t.check(VISIBILITY, [], 'screenshots_visibility_known');
    t.check('thumbnail_width IS NULL OR thumbnail_width <= 640', [], 'screenshots_thumbnail_width');
    t.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('mineral_balances', (t) => {
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.bigInteger('balance').notNullable().defaultTo(0);
    t.integer('level').notNullable().defaultTo(1);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('balance >= 0 AND level >= 1', [], 'mineral_balances_positive');
  });

  await knex.schema.createTable('verifications', (t) => {
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.uuid('vouched_by').references('accounts.id').onDelete('SET NULL');
    t.timestamp('verified_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('activity_items', (t) => {
    owned(knex, t);
    t.text('kind').notNullable();
    // The review, session, entry, list, screenshot or journey the item is about.
    t.uuid('subject_id').notNullable();
    t.integer('game_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("kind in ('entry', 'session', 'review', 'list', 'screenshot', 'journey')", [], 'activity_items_kind_known');
    // The feed's order is (created_at, id): with the id in the index, equal times need no sort.
    t.index(['account_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
    t.index(['game_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'activity_items',
    'verifications',
    'mineral_balances',
    'screenshots',
    'journeys',
    'list_items',
    'lists',
    'list_folders',
    'reviews',
    'play_sessions',
    'library_copies',
    'library_entries',
  ]) {
    await knex.schema.dropTable(table);
  }
}
