// GET /games: every filter of the spec's table as one WHERE over `games` (facets are arrays with GIN
// indexes), a page of 24 in the chosen order, and the total for `has_more`. Text matches the folded name
// (lower case, accents removed): exact, prefix and word-prefix matches rank before matches inside a word;
// when nothing matches, a trigram similarity search tolerates typos.
import type { Knex } from 'knex';
import { invalidRequest } from '../platform/errors.js';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { parseAgeFilter } from './age-ratings.js';
import { CountCache } from './count-cache.js';
import { languageTerms } from './languages.js';
import type { GameRow } from './rows.js';
import { CATALOG_MAX_PAGE, type GameSearch, type GameSort } from './search-parameters.js';
import { escapeLike } from '../platform/db/like.js';

export const GAME_PAGE = { size: 24, maxPage: CATALOG_MAX_PAGE };
/** Browsing without a query shows main games, remakes and remasters unless `types` says otherwise. */
export const BROWSE_TYPES = [0, 8, 9];
/** `total_items` counts matches up to this many. */
export const TOTAL_CAP = 2500;
/** Similarity a typo-tolerant match needs (pg_trgm's scale, 0 to 1). */
const FUZZY_THRESHOLD = 0.3;

// Each order matches an index exactly (NULLS LAST included), so a page reads only the rows it shows.
const ORDER: Record<GameSort, string> = {
  popular: 'g.popularity DESC NULLS LAST, g.id',
  trending: 'g.trending DESC NULLS LAST, g.id',
  rating: 'g.weighted_rating DESC NULLS LAST, g.id',
  votes: 'g.rating_count DESC NULLS LAST, g.id',
  newest: 'g.release_date DESC NULLS LAST, g.id',
  oldest: 'g.release_date ASC NULLS LAST, g.id',
  hype: 'g.hype DESC NULLS LAST, g.id',
  name: 'g.name_folded, g.id',
};

const COLUMNS = 'g.id, g.slug, g.name, g.release_year, g.type, g.rating, g.genre_ids, g.demo_available';

type Where = { sql: string[]; bindings: Knex.RawBinding[] };

function add(where: Where, sql: string, ...bindings: Knex.RawBinding[]): void {
  where.sql.push(sql);
  where.bindings.push(...bindings);
}

function facet(where: Where, column: string, ids: number[] | undefined, mode: 'any' | 'all' = 'any'): void {
  if (ids?.length) add(where, `g.${column} ${mode === 'all' ? '@>' : '&&'} ?::int[]`, ids);
}

function languages(where: Where, columns: string[], codes: string[] | undefined): void {
  if (!codes?.length) return;
  // A code matches itself; `pt` matches any Portuguese because stored arrays hold the base too.
  const terms = codes.map((code) => languageTerms(code)[0]);
  add(where, `(${columns.map((column) => `g.${column} && ?::text[]`).join(' OR ')})`, ...columns.map(() => terms));
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
  if (search.steam) add(where, 'g.store_url IS NOT NULL');
  if (search.rated) add(where, 'g.rating_count > 0');
  if (search.reviewed) add(where, 'g.review_count > 0');
  if (search.hideCancelled) add(where, "g.status NOT IN ('cancelled', 'rumored')");
  // Lesser-known games (nobody follows, rates or awaits them) only show to a search or on request.
  languages(where, ['interface_languages', 'audio_languages', 'subtitle_languages'], search.language);
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

interface Found {
  rows: GameRow[];
  total: number;
}

/** One page in `order` and the total, for the filters plus the text condition. */
/** Totals of public searches (never of one reader's own-library filters, which change with their writes). */
export const searchTotals = new CountCache();

async function findPage(
  db: Knex | Knex.Transaction,
  where: Where,
  match: Where,
  order: { sql: string; bindings: Knex.RawBinding[] },
  page: number,
  cacheTotal: boolean,
  sortsEveryMatch = false,
): Promise<Found> {
  const all = [...where.sql, ...match.sql];
  const clause = all.length ? `WHERE ${all.join(' AND ')}` : '';
  const bindings = [...where.bindings, ...match.bindings];
  const { limit, offset } = pageWindow(page, GAME_PAGE);
  const key = cacheTotal ? JSON.stringify([clause, bindings]) : null;
  const known = key === null ? undefined : searchTotals.get(key);
  if (sortsEveryMatch && known === undefined) {
    // A ranking by text reads and sorts every match anyway: the total comes with the page, where a count
    // of its own would search the name index a second time (half the time of an 80-character search).
    const { rows } = await db.raw<{ rows: Array<GameRow & { matches: number }> }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS matches FROM games g ${clause} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      [...bindings, ...order.bindings, limit, offset],
    );
    if (rows.length > 0) {
      const total = Math.min(rows[0].matches, TOTAL_CAP);
      if (key !== null) searchTotals.set(key, total);
      return { rows: rows.map(({ matches: _matches, ...row }) => row as GameRow), total };
    }
  }
  const [{ rows }, total] = await Promise.all([
    // The page's ids first, then their rows: the ids of a deep page can come from a covering index alone
    // (see the catalog_covering_browse migration), so only the games shown are read from the table.
    db.raw<{ rows: GameRow[] }>(
      `SELECT ${COLUMNS} FROM (
         SELECT g.id, row_number() OVER (ORDER BY ${order.sql}) AS n FROM games g ${clause}
         ORDER BY ${order.sql} LIMIT ? OFFSET ?) page
       JOIN games g ON g.id = page.id ORDER BY page.n`,
      [...order.bindings, ...bindings, ...order.bindings, limit, offset],
    ),
    // Counting stops at the cap: an exact count of a broad browse would read most of the table, and no
    // client can page past 2,400 results anyway (100 pages of 24).
    known ??
      db
        .raw<{ rows: Array<{ n: number }> }>(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM games g ${clause} LIMIT ${TOTAL_CAP}) counted`,
          bindings,
        )
        .then(({ rows: [{ n }] }) => {
          if (key !== null) searchTotals.set(key, n);
          return n;
        }),
  ]);
  return { rows, total };
}

const NO_MATCH: Where = { sql: [], bindings: [] };

export async function searchGames(
  knex: Knex,
  search: GameSearch,
  readerId: string | null = null,
  today = new Date().toISOString().slice(0, 10),
) {
  const where = filters(search, today, readerId);
  const cacheTotal = readerId === null;
  const sort = { sql: ORDER[search.sort ?? 'popular'], bindings: [] as Knex.RawBinding[] };
  if (!search.q?.trim()) {
    const found = await findPage(knex, where, NO_MATCH, sort, search.page, cacheTotal);
    return { rows: found.rows, page: pageObject(search.page, GAME_PAGE, found.total) };
  }
  const text = search.q.trim();
  const escaped = escapeLike(text);
  // Rank 0: the name itself; 1: it starts with the text; 2: a word of it does; 3: the text is inside.
  const ranked = {
    sql: `CASE WHEN g.name_folded = catalog_fold(?) THEN 0
      WHEN g.name_folded LIKE catalog_fold(?) THEN 1
      WHEN g.name_folded LIKE catalog_fold(?) THEN 2 ELSE 3 END, ${sort.sql}`,
    bindings: [text, `${escaped}%`, `% ${escaped}%`],
  };
  const contains = { sql: ['g.name_folded LIKE catalog_fold(?)'], bindings: [`%${escaped}%`] };
  let found = await findPage(knex, where, contains, search.sort ? sort : ranked, search.page, cacheTotal, !search.sort);
  if (found.total === 0) {
    // Nothing contains the text: names that look like it (typos, a missing or swapped letter).
    const alike = { sql: ['g.name_folded % catalog_fold(?)'], bindings: [text] };
    const likeness = { sql: `similarity(g.name_folded, catalog_fold(?)) DESC, ${sort.sql}`, bindings: [text] };
    found = await knex.transaction(async (trx) => {
      await trx.raw(`SET LOCAL pg_trgm.similarity_threshold = ${FUZZY_THRESHOLD}`);
      return findPage(trx, where, alike, search.sort ? sort : likeness, search.page, cacheTotal, !search.sort);
    });
  }
  return { rows: found.rows, page: pageObject(search.page, GAME_PAGE, found.total) };
}
