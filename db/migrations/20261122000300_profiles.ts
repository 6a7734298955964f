// The profile row of an account: the editable display fields of the spec (except display_name, which
// lives on the account because every authenticated request reads it) and library visibility.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('profiles', (table) => {
    table.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    table.text('bio').notNullable().defaultTo('');
    table.text('pronouns').notNullable().defaultTo('');
    table.text('thought').notNullable().defaultTo('');
    table.text('video_username').notNullable().defaultTo('');
    table.text('photo_username').notNullable().defaultTo('');
    table.text('microblog_username').notNullable().defaultTo('');
    table.text('library_visibility').notNullable().defaultTo('PUBLIC');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("library_visibility in ('PUBLIC', 'FOLLOWERS', 'PRIVATE')", [], 'profiles_library_visibility_known');
    table.check('char_length(bio) <= 500', [], 'profiles_bio_length');
    table.check('char_length(pronouns) <= 30', [], 'profiles_pronouns_length');
    table.check('char_length(thought) <= 100', [], 'profiles_thought_length');
    table.check('char_length(video_username) <= 60', [], 'profiles_video_username_length');
    table.check('char_length(photo_username) <= 30', [], 'profiles_photo_username_length');
    table.check('char_length(microblog_username) <= 15', [], 'profiles_microblog_username_length');
  });
  await knex.raw(
    'ALTER TABLE accounts ADD CONSTRAINT accounts_display_name_length CHECK (char_length(display_name) <= 60)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE accounts DROP CONSTRAINT accounts_display_name_length');
  await knex.schema.dropTable('profiles');
}
