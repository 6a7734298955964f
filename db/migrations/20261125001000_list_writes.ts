// People write their own lists (issue 23, DECISIONS: Lists). What the write side needs of the tables:
// - a tier list's labels (`lists.tiers`, in board order), which only a tier list has: a list of another
//   mode holds none, so a mode change away from tier cannot leave labels behind;
// - a list holds each game once, held by a unique index rather than a read before the write (the rows
//   written before this are cleaned of repeats first, keeping each game's first place);
// - a list's games named with their owner (`list_items_exported`), so the account export, which reads rows
//   by their owner column, can carry them: list_items has no owner of its own.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('lists', (t) => {
    t.specificType('tiers', 'text[]');
  });
  // Tier lists written before the labels had a column show the default board, plus any label their items use.
  await knex.raw(`UPDATE lists l SET tiers = ARRAY['S', 'A', 'B', 'C', 'D'] || coalesce((
      SELECT array_agg(DISTINCT i.tier ORDER BY i.tier) FROM list_items i
      WHERE i.list_id = l.id AND i.tier IS NOT NULL AND i.tier NOT IN ('S', 'A', 'B', 'C', 'D')), '{}')
    WHERE l.mode = 'tier'`);
  await knex.raw("ALTER TABLE lists ADD CONSTRAINT lists_tiers_only_tier CHECK (tiers IS NULL OR mode = 'tier')");

  await knex.raw(`DELETE FROM list_items i USING list_items first
    WHERE first.list_id = i.list_id AND first.game_id = i.game_id AND first.position < i.position`);
  await knex.raw('CREATE UNIQUE INDEX list_items_one_game ON list_items (list_id, game_id)');
  await knex.raw(`CREATE VIEW list_items_exported AS
    SELECT l.account_id, i.list_id, i.position, i.game_id, i.tier FROM list_items i JOIN lists l ON l.id = i.list_id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP VIEW list_items_exported');
  await knex.raw('DROP INDEX list_items_one_game');
  await knex.raw('ALTER TABLE lists DROP CONSTRAINT lists_tiers_only_tier');
  await knex.schema.alterTable('lists', (t) => {
    t.dropColumn('tiers');
  });
}
