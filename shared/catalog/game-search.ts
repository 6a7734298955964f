// GET /games: every filter of the spec's table as one WHERE over `games` (facets are arrays with GIN
// indexes), a page of 24 in the chosen order, and the total for `has_more` (game-pages.ts). The text, `q`,
// is game-text-search.ts.
import type { Knex } from 'knex';
import { invalidRequest } from '../platform/errors.js';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { parseAgeFilter } from './age-ratings.js';
import { languageTerms } from './languages.js';
import { findPage, GAME_PAGE, type Where } from './game-pages.js';
import { searchText } from './game-text-search.js';
import { browseFromCopy, textFromCopy } from './copy-browse.js';
import { ORDER } from './orders.js';
import { BROWSE_TYPES, type GameSearch } from './search-parameters.js';

export { GAME_PAGE, searchTotals, TOTAL_CAP } from './game-pages.js';

/** A condition, the same along an order's index. */
function add(where: Where, sql: string, ...bindings: Knex.RawBinding[]): void {
  where.sql.push(sql);
  where.bindings.push(...bindings);
  if (where.alongOrder) add(where.alongOrder, sql, ...bindings);
}

/** The bit that stands for every language term but the 62 bases (migration catalog_language_bits). */
const OTHER_LANGUAGES = '(1::bigint << 62)';

function facet(where: Where, column: string, ids: number[] | undefined, mode: 'any' | 'all' = 'any'): void {
  if (ids?.length) add(where, `g.${column} ${mode === 'all' ? '@>' : '&&'} ?::int[]`, ids);
}

/** The arrays' test of language codes: a code matches itself; `pt` any Portuguese (stored arrays hold the base). */
function languageTest(columns: string[], codes: string[]) {
  const terms = codes.map((code) => languageTerms(code)[0]);
  const sql = `(${columns.map((column) => `g.${column} && ?::text[]`).join(' OR ')})`;
  return { terms, sql, bindings: columns.map(() => terms) };
}

function languages(where: Where, columns: string[], codes: string[] | undefined): void {
  if (!codes?.length) return;
  const { sql, bindings } = languageTest(columns, codes);
  add(where, sql, ...bindings);
}

/**
 * `language`, any of the three arrays. Along an order it is the game's bits of bases, which the order's
 * index carries, when every term is a base that has a bit: a test of constants the planner settles before
 * it plans, so the arrays go unnamed and the walk reads the index alone. Any other term tests the arrays.
 * From here on the walk's conditions differ from the count's (`alongOrder`).
 */
function anyLanguage(where: Where, codes: string[] | undefined): void {
  if (!codes?.length) return;
  const { terms, sql, bindings } = languageTest(
    ['interface_languages', 'audio_languages', 'subtitle_languages'],
    codes,
  );
  const along = (where.alongOrder ??= { sql: [...where.sql], bindings: [...where.bindings] });
  where.sql.push(sql);
  where.bindings.push(...bindings);
  const bits = 'catalog_language_bits(?::text[])';
  along.sql.push(`CASE WHEN ${bits} & ${OTHER_LANGUAGES} = 0 THEN (g.language_bits & ${bits}) <> 0 ELSE ${sql} END`);
  along.bindings.push(terms, terms, ...bindings);
}

function dateFilters(where: Where, search: GameSearch, today: string): void {
  if (search.release === 'released') add(where, 'g.release_date <= ?::date', today);
  if (search.release === 'upcoming') {
    add(where, "(g.release_date > ?::date OR (g.release_date IS NULL AND g.status <> 'released'))", today);
  }
  const periods: Record<string, [string, string]> = {
    'last-30-days': [`?::date - 30`, '?::date'],
    'last-90-days': [`?::date - 90`, '?::date'],
    'this-year': [
      `date_trunc('year', ?::date)::date`,
      `(date_trunc('year', ?::date) + interval '1 year - 1 day')::date`,
    ],
    'next-3-months': ['?::date', `(?::date + interval '3 months')::date`],
  };
  if (search.period) {
    const [from, to] = periods[search.period];
    add(where, `g.release_date BETWEEN ${from} AND ${to}`, today, today);
  }
  if (search.yearFrom !== undefined) add(where, 'g.release_year >= ?', search.yearFrom);
  if (search.yearTo !== undefined) add(where, 'g.release_year <= ?', search.yearTo);
  if (search.anticipated) add(where, '(g.release_date > ?::date OR g.release_date IS NULL) AND g.hype > 0', today);
}

/** Every filter but the text. */
/** The own-library filters (spec: played = COMPLETED, library = any entry, unplayed = not played, ...). */
function ownLibrary(where: Where, search: GameSearch, readerId: string | null): void {
  if (!readerId) return;
  const entry = (condition: string) =>
    `EXISTS (SELECT 1 FROM library_entries e WHERE e.account_id = ? AND e.game_id = g.id${condition})`;
  if (search.played) add(where, entry(" AND e.status = 'COMPLETED'"), readerId);
  if (search.library) add(where, entry(''), readerId);
  if (search.wishlist) add(where, entry(" AND (e.wishlist OR e.status = 'WISHLIST')"), readerId);
  // A reader has at most one entry per game, so the exclusions are one lookup: a game is left out when
  // its entry is played (unplayed) or ignored (hideIgnored). Two lookups per game doubled a count's time.
  const excluded = [
    ...(search.unplayed ? ["e.status = 'COMPLETED'"] : []),
    ...(search.hideIgnored ? ['e.ignored'] : []),
  ];
  if (excluded.length) add(where, `NOT ${entry(` AND (${excluded.join(' OR ')})`)}`, readerId);
}

export function filters(search: GameSearch, today: string, readerId: string | null = null): Where {
  const where: Where = { sql: [], bindings: [] };
  if (search.yearFrom !== undefined && search.yearTo !== undefined && search.yearFrom > search.yearTo) {
    throw invalidRequest('yearFrom must not be after yearTo.', { field: 'yearFrom', reason: 'out_of_range' });
  }
  if (search.hoursMin !== undefined && search.hoursMax !== undefined && search.hoursMin > search.hoursMax) {
    throw invalidRequest('hoursMin must not be more than hoursMax.', { field: 'hoursMin', reason: 'out_of_range' });
  }
  const browsing = !search.q;
  facet(where, 'platform_ids', search.platforms);
  facet(where, 'genre_ids', search.genres, search.genresMode);
  facet(where, 'theme_ids', search.themes, search.themesMode);
  facet(where, 'mode_ids', search.modes);
  facet(where, 'perspective_ids', search.perspectives);
  facet(where, 'franchise_ids', search.franchises);
  facet(where, 'series_ids', search.series);
  // The common case, browsing with the default types among known games, is one stored column with
  // partial indexes of its own (see the catalog migration); anything else spells its conditions out.
  if (browsing && !search.types && !search.obscure) add(where, 'g.browsable');
  else {
    const types = search.types ?? (browsing ? BROWSE_TYPES : undefined);
    if (types?.length) add(where, 'g.type = ANY(?::smallint[])', types);
    if (browsing && !search.obscure) add(where, '(g.popularity > 0 OR g.rating_count > 0 OR g.hype > 0)');
  }
  const publishers = search.publishers;
  if (publishers?.length) {
    const columns = search.role ? [`${search.role}_ids`] : ['publisher_ids', 'developer_ids'];
    add(where, `(${columns.map((c) => `g.${c} && ?::int[]`).join(' OR ')})`, ...columns.map(() => publishers));
  }
  if (search.engines?.length) {
    add(
      where,
      'g.engine_ids && ARRAY(SELECT id FROM catalog_engines WHERE lower(name) = ANY(?::text[]))',
      search.engines.map((name) => name.toLowerCase()),
    );
  }
  dateFilters(where, search, today);
  if (search.demo) add(where, 'g.demo_available');
  if (search.steam) add(where, 'g.has_store');
  if (search.rated) add(where, 'g.rating_count > 0');
  if (search.reviewed) add(where, 'g.review_count > 0');
  if (search.hideCancelled) add(where, "g.status NOT IN ('cancelled', 'rumored')");
  // Lesser-known games (nobody follows, rates or awaits them) only show to a search or on request.
  anyLanguage(where, search.language);
  languages(where, ['interface_languages'], search.interface);
  languages(where, ['audio_languages'], search.audio);
  languages(where, ['subtitle_languages'], search.subtitles);
  if (search.age) {
    const age = parseAgeFilter(search.age)!;
    add(where, `g.age_${age.board} <= ?`, age.step);
  }
  if (search.rating !== undefined) add(where, 'g.rating >= ?', search.rating);
  if (search.votes !== undefined) add(where, 'g.rating_count >= ?', search.votes);
  if (search.libraries !== undefined) add(where, 'g.library_count >= ?', search.libraries);
  if (search.status?.length) add(where, 'g.status = ANY(?::text[])', search.status);
  if (search.hoursMin !== undefined) add(where, 'g.hours_main >= ?', search.hoursMin);
  if (search.hoursMax !== undefined) add(where, 'g.hours_main <= ?', search.hoursMax);
  ownLibrary(where, search, readerId);
  return where;
}

const NO_MATCH: Where = { sql: [], bindings: [] };

/** How many searches each way answered, in this process (metrics, and tests that must know the way). */
export const catalogAnswers = { copy: 0, database: 0 };

/** Counts the way a search was answered. */
function answered<T>(way: keyof typeof catalogAnswers, found: T): T {
  catalogAnswers[way] += 1;
  return found;
}

export async function searchGames(
  knex: Knex,
  search: GameSearch,
  readerId: string | null = null,
  today = new Date().toISOString().slice(0, 10),
) {
  const where = filters(search, today, readerId);
  const cacheTotal = readerId === null;
  const sort = { sql: ORDER[search.sort ?? 'popular'], bindings: [] as Knex.RawBinding[] };
  const window = pageWindow(search.page, GAME_PAGE);
  const text = search.q?.trim();
  const copied = text
    ? await textFromCopy(knex, search, text, window, today)
    : await browseFromCopy(knex, search, window, today);
  const found = copied
    ? answered('copy', copied)
    : answered(
        'database',
        text
          ? await searchText(knex, where, { text, sort: search.sort ? sort : null, page: search.page, cacheTotal })
          : await findPage(knex, where, NO_MATCH, sort, window, cacheTotal),
      );
  return { rows: found.rows, page: pageObject(search.page, GAME_PAGE, found.total) };
}
