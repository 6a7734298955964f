// Comments: the profile conversation (on a person's profile) and comments on their posted things (reviews,
// lists, screenshots, diary sessions, journeys). The spec shows no comment routes, only that comments exist
// (the profile conversation in GET /profiles/{username}/social, the reports PROFILE_COMMENT and
// CONTENT_COMMENT, and the deletion category `comments`); this is the model those read.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('comments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // The author.
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // What the comment is on: a PROFILE (target_id is the profile's account) or a posted thing.
    t.text('target_kind').notNullable();
    t.uuid('target_id').notNullable();
    // Whose profile or thing it is: conversations are read by it, and its account's deletion takes them.
    t.uuid('target_account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Removed by moderation: shown nowhere, kept for the record.
    t.timestamp('removed_at', { useTz: true });
    t.check(
      "target_kind in ('PROFILE', 'REVIEW', 'LIST', 'SCREENSHOT', 'DIARY', 'JOURNEY')",
      [],
      'comments_target_kind_known',
    );
    t.check('length(btrim(body)) between 1 and 1000', [], 'comments_body_length');
    t.check("target_kind <> 'PROFILE' OR target_id = target_account_id", [], 'comments_profile_target');
    // A conversation reads newest first by (created_at, id).
    t.index(['target_kind', 'target_id', 'created_at', 'id']);
    t.index(['account_id', 'created_at']);
    t.index(['target_account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('comments');
}
