// Deep pages of a browse filtered by release, status, hours, store, age or the counts walked an order's
// index and read each game's row to test the filter: upcoming games by trending, page 98, read 50,000 rows
// (86 ms); hours 55 to 90 by votes, page 60, 48,000 (75 ms); with a store page by trending, page 67, 60,000
// (83 ms). Every order index, of all games and of the browsable ones, now carries the scalar columns those
// filters test (about 65 bytes a game), so such walks read the index alone (upcoming by trending, page 98:
// 11 ms). Whether a game has a store page becomes a stored column, since an index carries columns, not
// expressions. The arrays of languages stay out: they would double the indexes, and have GIN indexes.
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

// The browse indexes are named by sort, not by column.
const BROWSE_NAMES: Record<string, string> = {
  popularity: 'popularity',
  trending: 'trending',
  hype: 'hype',
  weighted_rating: 'weighted_rating',
  rating_count: 'rating_count',
  release_date: 'newest',
  release_date_asc: 'oldest',
  name: 'name',
};

const FACETS = 'type, platform_ids, genre_ids, theme_ids, release_year';
const AGES = 'age_esrb, age_pegi, age_cero, age_usk, age_grac, age_class_ind, age_acb';
const SCALARS = `release_date, status, hours_main, rating, rating_count, hype, popularity, demo_available, has_store, review_count, library_count, ${AGES}`;

async function rebuild(knex: Knex, all: (name: string) => string, browse: string): Promise<void> {
  for (const [name, order] of Object.entries(ORDERS)) {
    await knex.raw(`DROP INDEX games_by_${name}`);
    await knex.raw(`CREATE INDEX games_by_${name} ON games (${order}) INCLUDE (${all(name)})`);
    const browseName = `games_browse_by_${BROWSE_NAMES[name]}`;
    await knex.raw(`DROP INDEX ${browseName}`);
    await knex.raw(`CREATE INDEX ${browseName} ON games (${order}) INCLUDE (${browse}) WHERE browsable`);
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE games ADD COLUMN has_store boolean GENERATED ALWAYS AS (store_url IS NOT NULL) STORED');
  await knex.raw('DROP INDEX games_with_store');
  await knex.raw('CREATE INDEX games_with_store ON games (id) WHERE has_store');
  // The name index has the name as its key; the others carry it for text walks (catalog_popular_names).
  const names = (name: string) => (name === 'name' ? '' : ', name_folded');
  await rebuild(knex, (name) => `${FACETS}${names(name)}, ${SCALARS}`, `${FACETS}, ${SCALARS}`);
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(
    knex,
    (name) => (name === 'name' ? FACETS : `${FACETS}, name_folded`),
    'platform_ids, genre_ids, theme_ids, release_year',
  );
  await knex.raw('DROP INDEX games_with_store');
  await knex.raw('ALTER TABLE games DROP COLUMN has_store');
  await knex.raw('CREATE INDEX games_with_store ON games (id) WHERE store_url IS NOT NULL');
}
