// What a person looked at (DECISIONS: History): games and profiles their session read, newest first, one
// row per thing (a repeat view moves it to the top). Created now so the deletion category `views` names
// the table it empties, even before the routes that record and read it exist.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('view_history', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.integer('game_id').references('games.id').onDelete('CASCADE');
    t.uuid('profile_id').references('accounts.id').onDelete('CASCADE');
    t.timestamp('viewed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    'ALTER TABLE view_history ADD CONSTRAINT view_history_one_subject CHECK (num_nonnulls(game_id, profile_id) = 1)',
  );
  await knex.raw(
    'CREATE UNIQUE INDEX view_history_game ON view_history (account_id, game_id) WHERE game_id IS NOT NULL',
  );
  await knex.raw(
    'CREATE UNIQUE INDEX view_history_profile ON view_history (account_id, profile_id) WHERE profile_id IS NOT NULL',
  );
  await knex.raw('CREATE INDEX view_history_newest ON view_history (account_id, viewed_at DESC, id DESC)');
  await knex.raw('CREATE INDEX view_history_viewed_profile ON view_history (profile_id) WHERE profile_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('view_history');
}
