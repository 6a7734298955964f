// The game catalog. Games carry their many-to-many facets as arrays of upstream ids (platforms, genres,
// themes, modes, perspectives, publishers, developers, engines, franchises, series) with GIN indexes, so a
// search filters and sorts one table; the facet tables hold the names. Age ratings are one step column
// per board (filter: rated by the board up to a step), languages are arrays per kind holding both the
// full code and its base (`pt-BR` and `pt`), so `pt` matches either by plain overlap.
import type { Knex } from 'knex';

const FACETS = [
  'platforms',
  'genres',
  'themes',
  'modes',
  'perspectives',
  'companies',
  'engines',
  'franchises',
  'series',
];
const FACET_ARRAYS = [
  'platform_ids',
  'genre_ids',
  'theme_ids',
  'mode_ids',
  'perspective_ids',
  'publisher_ids',
  'developer_ids',
  'engine_ids',
  'franchise_ids',
  'series_ids',
];
const AGE_BOARDS = ['esrb', 'pegi', 'cero', 'usk', 'grac', 'class_ind', 'acb'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await knex.raw('CREATE EXTENSION IF NOT EXISTS unaccent');
  // unaccent() is only STABLE; an immutable wrapper with the dictionary named lets indexes use it.
  await knex.raw(`
    CREATE FUNCTION catalog_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$`);

  for (const facet of FACETS) {
    await knex.schema.createTable(`catalog_${facet}`, (table) => {
      table.integer('id').primary(); // the upstream id
      table.text('name').notNullable();
      table.text('slug');
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
  }
  // Companies also carry what /search/companies filters and sorts by; the counts are refreshed after each
  // import and by catalog.stats.
  await knex.schema.alterTable('catalog_companies', (table) => {
    table.text('status');
    table.date('start_date');
    table.integer('published_count').notNullable().defaultTo(0);
    table.integer('developed_count').notNullable().defaultTo(0);
    table.check(
      "status IS NULL OR status in ('active', 'defunct', 'merged', 'renamed')",
      [],
      'catalog_companies_status_known',
    );
  });
  await knex.raw('CREATE INDEX catalog_engines_name ON catalog_engines (lower(name))');
  await knex.raw(
    'CREATE INDEX catalog_companies_name_trgm ON catalog_companies USING gin (catalog_fold(name) gin_trgm_ops)',
  );

  await knex.schema.createTable('games', (table) => {
    table.increments('id').primary();
    table.integer('igdb_id').unique();
    table.text('slug').notNullable().unique();
    table.text('name').notNullable();
    table.date('release_date');
    table.smallint('release_year');
    table.smallint('type');
    table.text('status').notNullable().defaultTo('released');
    table.boolean('demo_available').notNullable().defaultTo(false);
    table.text('demo_url');
    table.text('store_url');
    table.smallint('hours_main');
    for (const array of FACET_ARRAYS) {
      table.specificType(array, 'integer[]').notNullable().defaultTo('{}');
    }
    for (const board of AGE_BOARDS) table.smallint(`age_${board}`);
    for (const kind of ['interface', 'audio', 'subtitle']) {
      table.specificType(`${kind}_languages`, 'text[]').notNullable().defaultTo('{}');
    }
    // Aggregates: upstream's at import, then the service's own from catalog.stats.
    table.specificType('rating', 'real');
    table.integer('rating_count').notNullable().defaultTo(0);
    table.specificType('weighted_rating', 'real');
    table.integer('review_count').notNullable().defaultTo(0);
    table.integer('library_count').notNullable().defaultTo(0);
    table.specificType('popularity', 'real').notNullable().defaultTo(0);
    // Upstream's share of the popularity (followers there); catalog.stats adds the service's activity.
    table.specificType('upstream_popularity', 'real').notNullable().defaultTo(0);
    table.specificType('trending', 'real').notNullable().defaultTo(0);
    table.integer('hype').notNullable().defaultTo(0);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // What browsing without a query shows by default (main games, remakes, remasters that someone knows):
    // a quarter of a large catalog, with partial indexes per sort below.
    table.specificType(
      'browsable',
      'boolean GENERATED ALWAYS AS (type IN (0, 8, 9) AND (popularity > 0 OR rating_count > 0 OR hype > 0)) STORED',
    );
    table.check(
      "status in ('released', 'alpha', 'beta', 'early_access', 'offline', 'cancelled', 'rumored', 'delisted')",
      [],
      'games_status_known',
    );
    table.check('type IS NULL OR type between 0 and 14', [], 'games_type_known');
    table.check('release_year IS NULL OR release_year between 1950 and 2100', [], 'games_release_year_range');
  });
  // Per-game counts of the service's own activity, recomputed by catalog.stats (GET /games/stats).
  await knex.schema.createTable('game_stats', (table) => {
    table.integer('game_id').primary();
    for (const count of [
      'library',
      'playing',
      'finished',
      'wishlisted',
      'favorited',
      'reviewing',
      'journeys',
      'sessions',
      'recent_activity',
    ]) {
      table.integer(count).notNullable().defaultTo(0);
    }
    table.specificType('rating', 'real');
    table.integer('rating_count').notNullable().defaultTo(0);
    table.integer('review_count').notNullable().defaultTo(0);
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX games_name_trgm ON games USING gin (catalog_fold(name) gin_trgm_ops)');
  for (const array of FACET_ARRAYS) {
    await knex.raw(`CREATE INDEX games_${array} ON games USING gin (${array})`);
  }
  for (const sort of ['popularity', 'trending', 'hype', 'weighted_rating', 'rating_count', 'release_date']) {
    await knex.raw(`CREATE INDEX games_by_${sort} ON games (${sort} DESC NULLS LAST, id)`);
  }
  const orders: Record<string, string> = {
    popularity: 'popularity DESC NULLS LAST, id',
    trending: 'trending DESC NULLS LAST, id',
    hype: 'hype DESC NULLS LAST, id',
    weighted_rating: 'weighted_rating DESC NULLS LAST, id',
    rating_count: 'rating_count DESC NULLS LAST, id',
    newest: 'release_date DESC NULLS LAST, id',
    oldest: 'release_date ASC NULLS LAST, id',
    name: 'catalog_fold(name), id',
  };
  for (const [name, order] of Object.entries(orders)) {
    await knex.raw(`CREATE INDEX games_browse_by_${name} ON games (${order}) WHERE browsable`);
  }
  for (const facet of [
    'platform_ids',
    'genre_ids',
    'theme_ids',
    'interface_languages',
    'audio_languages',
    'subtitle_languages',
  ]) {
    await knex.raw(`CREATE INDEX games_browse_${facet} ON games USING gin (${facet}) WHERE browsable`);
  }
  // Orders a backward scan of the indexes above cannot give: oldest first with undated last, and by name.
  await knex.raw('CREATE INDEX games_by_release_date_asc ON games (release_date ASC NULLS LAST, id)');
  await knex.raw('CREATE INDEX games_by_name ON games (catalog_fold(name), id)');
  // Filters that are not facets, so that counting a selective filter reads the matching rows only.
  for (const kind of ['interface', 'audio', 'subtitle']) {
    await knex.raw(`CREATE INDEX games_${kind}_languages ON games USING gin (${kind}_languages)`);
  }
  await knex.raw('CREATE INDEX games_release_year ON games (release_year)');
  await knex.raw('CREATE INDEX games_hours_main ON games (hours_main) WHERE hours_main IS NOT NULL');
  await knex.raw("CREATE INDEX games_unreleased_status ON games (status) WHERE status <> 'released'");
  await knex.raw('CREATE INDEX games_with_demo ON games (id) WHERE demo_available');
  await knex.raw('CREATE INDEX games_with_store ON games (id) WHERE store_url IS NOT NULL');
  await knex.raw('CREATE INDEX games_reviewed ON games (review_count) WHERE review_count > 0');
  await knex.raw('CREATE INDEX games_with_library ON games (library_count) WHERE library_count > 0');
  for (const board of AGE_BOARDS) {
    await knex.raw(`CREATE INDEX games_age_${board} ON games (age_${board}) WHERE age_${board} IS NOT NULL`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('game_stats');
  await knex.schema.dropTable('games');
  for (const facet of FACETS) await knex.schema.dropTable(`catalog_${facet}`);
  await knex.raw('DROP FUNCTION catalog_fold(text)');
}
