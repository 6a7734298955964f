// The feed filtered to one kind (GET /activity?kinds=review) walked the whole feed's index and skipped the
// other kinds: about forty rows read per review shown. With the kind first, it reads only its own.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('activity_items', (t) => {
    t.index(['kind', 'created_at', 'id'], 'activity_items_kind_created_at_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('activity_items', (t) => {
    t.dropIndex(['kind', 'created_at', 'id'], 'activity_items_kind_created_at_id_index');
  });
}
