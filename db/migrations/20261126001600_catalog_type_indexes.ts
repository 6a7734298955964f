// A browse that names its types (`types=8,9`, remasters and remakes) found its matches only by reading
// the table or by walking an order's index: the count of known remasters read the table until it had
// 2,500 of them (100 to 130 ms for page 1 over 300,000 games, where the type is a sixth of the catalog but
// rarely known), and a page sorted by hype walked 128,000 index entries for 2,400 of them. An index of the
// type, and one of the known games' types (the condition a browse without `obscure` adds, spelled as
// game-search.ts spells it, so the planner can use it), count them from the index and let a page of few
// matches read them first and sort them (shared/catalog/game-pages.ts). A few megabytes each.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX games_type ON games (type)');
  await knex.raw(
    'CREATE INDEX games_known_type ON games (type) WHERE (popularity > 0 OR rating_count > 0 OR hype > 0)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX games_known_type');
  await knex.raw('DROP INDEX games_type');
}
