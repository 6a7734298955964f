// One layout per profile: the owner's draft and the published copy, each with its version. The version
// check of a save is a conditional UPDATE, so of two saves naming the same version exactly one wins.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('profile_layouts', (table) => {
    table.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    table.jsonb('draft').notNullable();
    table.integer('version').notNullable();
    table.jsonb('published');
    table.integer('published_version');
    table.timestamp('published_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check('version >= 1', [], 'profile_layouts_version_positive');
    table.check('(published IS NULL) = (published_version IS NULL)', [], 'profile_layouts_published_pair');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('profile_layouts');
}
