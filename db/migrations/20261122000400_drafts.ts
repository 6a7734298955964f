// Drafts: the owner's unpublished writing (spec: /drafts; fields of our design, limits in the README).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('drafts', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('kind').notNullable();
    table.text('title').notNullable().defaultTo('');
    table.text('body').notNullable().defaultTo('');
    table.text('game');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("kind in ('review', 'list', 'journal', 'note')", [], 'drafts_kind_known');
    table.check('char_length(title) <= 200', [], 'drafts_title_length');
    table.check('char_length(body) <= 20000', [], 'drafts_body_length');
    table.check("game IS NULL OR game ~ '^[a-z0-9]+(-[a-z0-9]+)*$'", [], 'drafts_game_slug');
    table.index(['account_id', 'updated_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('drafts');
}
