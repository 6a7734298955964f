// Deep pages of a filtered browse walked an order's index and read each game's row to test the filter:
// with `obscure` (every game of the default types) a theme, oldest first, page 100, 121 ms; upcoming games
// by trending, page 98, 50,000 rows (86 ms); with a store page by trending, page 67, 60,000 (83 ms). Every
// order index, of all games and of the browsable ones, now carries what those filters test: the type and
// facets the browse indexes carried (catalog_covering_browse), release, status, hours, scores and counts,
// demo, store and the age boards (about 65 bytes a game), so the walks read the index alone (upcoming by
// trending, page 98: 16 ms). The all-games ones carry the folded name too, for the walks of a common or
// short text (shared/catalog/game-text-search.ts; "s", page 29: 300 ms sorting every match, 1.2 ms). An
// index carries columns, not expressions, so whether a game has a store page becomes a stored column. The
// arrays of languages stay out: they would double the indexes, and they have GIN indexes of their own.
// And `rating` (a minimum score) gets an index: a high minimum with `obscure` read the whole table (90 to
// 200 ms); 48,000 of 300,000 games have a score.
import type { Knex } from 'knex';

/** Each order's columns, by the name of its all-games index (games_by_*) and of its browse index. */
const ORDERS: Array<{ all: string; browse: string; order: string }> = [
  { all: 'popularity', browse: 'popularity', order: 'popularity DESC NULLS LAST, id' },
  { all: 'trending', browse: 'trending', order: 'trending DESC NULLS LAST, id' },
  { all: 'hype', browse: 'hype', order: 'hype DESC NULLS LAST, id' },
  { all: 'weighted_rating', browse: 'weighted_rating', order: 'weighted_rating DESC NULLS LAST, id' },
  { all: 'rating_count', browse: 'rating_count', order: 'rating_count DESC NULLS LAST, id' },
  { all: 'release_date', browse: 'newest', order: 'release_date DESC NULLS LAST, id' },
  { all: 'release_date_asc', browse: 'oldest', order: 'release_date ASC NULLS LAST, id' },
  { all: 'name', browse: 'name', order: 'name_folded, id' },
];

const FACETS = 'platform_ids, genre_ids, theme_ids, release_year';
const AGES = 'age_esrb, age_pegi, age_cero, age_usk, age_grac, age_class_ind, age_acb';
const SCALARS = `release_date, status, hours_main, rating, rating_count, hype, popularity, demo_available, has_store, review_count, library_count, ${AGES}`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE games ADD COLUMN has_store boolean GENERATED ALWAYS AS (store_url IS NOT NULL) STORED');
  await knex.raw('DROP INDEX games_with_store');
  await knex.raw('CREATE INDEX games_with_store ON games (id) WHERE has_store');
  for (const { all, browse, order } of ORDERS) {
    // The name index has the name as its key already.
    const name = all === 'name' ? '' : ', name_folded';
    await knex.raw(`DROP INDEX games_by_${all}`);
    await knex.raw(`CREATE INDEX games_by_${all} ON games (${order}) INCLUDE (type, ${FACETS}${name}, ${SCALARS})`);
    await knex.raw(`DROP INDEX games_browse_by_${browse}`);
    await knex.raw(
      `CREATE INDEX games_browse_by_${browse} ON games (${order}) INCLUDE (type, ${FACETS}, ${SCALARS}) WHERE browsable`,
    );
  }
  await knex.raw('CREATE INDEX games_rating ON games (rating) WHERE rating IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX games_rating');
  for (const { all, browse, order } of ORDERS) {
    await knex.raw(`DROP INDEX games_by_${all}`);
    await knex.raw(`CREATE INDEX games_by_${all} ON games (${order})`);
    await knex.raw(`DROP INDEX games_browse_by_${browse}`);
    await knex.raw(`CREATE INDEX games_browse_by_${browse} ON games (${order}) INCLUDE (${FACETS}) WHERE browsable`);
  }
  await knex.raw('DROP INDEX games_with_store');
  await knex.raw('ALTER TABLE games DROP COLUMN has_store');
  await knex.raw('CREATE INDEX games_with_store ON games (id) WHERE store_url IS NOT NULL');
}
