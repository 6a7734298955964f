// Browsing with `obscure` (every game of the default types, not only the quarter people know) walked the
// sort's index over all 300,000 games and read each game's row to test its type and filters: a theme,
// oldest first, page 100, 121 ms. The all-games indexes of each order now carry the type and the columns
// the browse indexes carry (catalog_covering_browse), so those pages come from the index alone (13 ms);
// they grow from 7 to 34 MB each. And `rating` (a minimum score) had no index: a high minimum with
// `obscure` read the whole table (90 to 200 ms); 48,000 games have a score, so the index is small.
import type { Knex } from 'knex';

const ORDERS: Record<string, string> = {
  popularity: 'popularity DESC NULLS LAST, id',
  trending: 'trending DESC NULLS LAST, id',
  hype: 'hype DESC NULLS LAST, id',
  weighted_rating: 'weighted_rating DESC NULLS LAST, id',
  rating_count: 'rating_count DESC NULLS LAST, id',
  release_date: 'release_date DESC NULLS LAST, id',
  release_date_asc: 'release_date ASC NULLS LAST, id',
  name: 'name_folded, id',
};

const COVERED = 'type, platform_ids, genre_ids, theme_ids, release_year';

export async function up(knex: Knex): Promise<void> {
  for (const [name, order] of Object.entries(ORDERS)) {
    await knex.raw(`DROP INDEX games_by_${name}`);
    await knex.raw(`CREATE INDEX games_by_${name} ON games (${order}) INCLUDE (${COVERED})`);
  }
  await knex.raw('CREATE INDEX games_rating ON games (rating) WHERE rating IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX games_rating');
  for (const [name, order] of Object.entries(ORDERS)) {
    await knex.raw(`DROP INDEX games_by_${name}`);
    await knex.raw(`CREATE INDEX games_by_${name} ON games (${order})`);
  }
}
