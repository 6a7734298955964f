// GET /games: every filter of the spec's table as one WHERE over `games` (facets are arrays with GIN
// indexes), a page of 24 in the chosen order, and the total for `has_more`. Text matches the folded name
// (lower case, accents removed): exact, prefix and word-prefix matches rank before matches inside a word;
// when nothing contains it, names holding each of its words, misspelt ones corrected (title-words.ts).
import type { Knex } from 'knex';
import { invalidRequest } from '../platform/errors.js';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { parseAgeFilter } from './age-ratings.js';
import { CountCache } from './count-cache.js';
import { languageTerms } from './languages.js';
import type { GameRow } from './rows.js';
import { CATALOG_MAX_PAGE, type GameSearch, type GameSort } from './search-parameters.js';
import { escapeLike, likeContaining } from '../platform/db/like.js';
import { checkTextWords, correctedWords, SHORTEST_INDEXED, type SearchText } from './title-words.js';

export const GAME_PAGE = { size: 24, maxPage: CATALOG_MAX_PAGE };
/** Browsing without a query shows main games, remakes and remasters unless `types` says otherwise. */
export const BROWSE_TYPES = [0, 8, 9];
/** `total_items` counts matches up to this many. */
export const TOTAL_CAP = 2500;

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

/** Totals of public searches (never of one reader's own-library filters, which change with their writes). */
export const searchTotals = new CountCache();

/**
 * How a page is found: by walking the order's index when the matches reach the count's cap (browsing, or
 * a text common enough that a page comes soon), by reading the matches first, or by sorting every match
 * (a ranking by text).
 */
export type Plan = 'walk' | 'matchesFirst' | 'sortsEveryMatch';

/** One page in `order` and the total, for the filters plus the text condition. */
async function findPage(
  db: Knex | Knex.Transaction,
  where: Where,
  match: Where,
  order: Order,
  page: number,
  cacheTotal: boolean,
  plan: Plan = 'walk',
): Promise<Found> {
  const all = [...where.sql, ...match.sql];
  const clause = all.length ? `WHERE ${all.join(' AND ')}` : '';
  const bindings = [...where.bindings, ...match.bindings];
  const { limit, offset } = pageWindow(page, GAME_PAGE);
  const key = cacheTotal ? JSON.stringify([clause, bindings]) : null;
  const known = key === null ? undefined : searchTotals.get(key);
  if (plan === 'sortsEveryMatch' && known === undefined) {
    // A ranking by text reads and sorts every match anyway: the total comes with the page, where a count
    // of its own would search the name index a second time (half the time of an 80-character search).
    const { rows } = await db.raw<{ rows: Array<GameRow & { matches: number }> }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS matches FROM games g ${clause} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      [...bindings, ...order.bindings, limit, offset],
    );
    if (rows.length > 0 || offset === 0) {
      // No row on the first page: nothing matches, and there is nothing left to count.
      const total = rows.length > 0 ? Math.min(rows[0].matches, TOTAL_CAP) : 0;
      if (key !== null) searchTotals.set(key, total);
      return { rows: rows.map(({ matches: _matches, ...row }) => row as GameRow), total };
    }
  }
  // Matches of a text are read by the name index, never found by walking another index: counting up to
  // the cap of "%sto%" (9,000 names) walked the name order through 230,000 games (56 ms) for 2,500 of them.
  const counted = match.sql.length ? `SELECT * FROM games g ${clause} OFFSET 0` : `SELECT 1 FROM games g ${clause}`;
  const count = (): Promise<number> =>
    // Counting stops at the cap: an exact count of a broad browse would read most of the table, and no
    // client can page past 2,400 results anyway (100 pages of 24).
    db
      .raw<{ rows: Array<{ n: number }> }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM (${counted}) g LIMIT ${TOTAL_CAP}) counted`,
        bindings,
      )
      .then(({ rows: [{ n }] }) => {
        if (key !== null) searchTotals.set(key, n);
        return n;
      });
  // The count comes first and says how to read the page. Under the cap the matches are few: they are
  // read by their own indexes and sorted, behind a fence (OFFSET 0) that keeps the planner from walking the
  // order's index instead (it walked all 300,000 games by trending for a language no game has, 350 ms,
  // and by hype for "%fuyu%", in 71 names). At the cap they are common, and walking finds a page soon.
  const total = known ?? (await count());
  if (offset >= total) return { rows: [], total };
  if (total < TOTAL_CAP || plan === 'matchesFirst') {
    const { rows } = await db.raw<{ rows: GameRow[] }>(
      `SELECT ${COLUMNS} FROM (SELECT * FROM games g ${clause} OFFSET 0) g ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      [...bindings, ...order.bindings, limit, offset],
    );
    return { rows, total };
  }
  return { rows: await pageByIds(db, clause, bindings, order, limit, offset), total };
}

/**
 * The page's ids first, then their rows: the ids of a deep page can come from a covering index alone (see
 * the catalog_covering_browse migration), so only the games shown are read from the table.
 */
async function pageByIds(
  db: Knex | Knex.Transaction,
  clause: string,
  bindings: Knex.RawBinding[],
  order: Order,
  limit: number,
  offset: number,
): Promise<GameRow[]> {
  const { rows } = await db.raw<{ rows: GameRow[] }>(
    `SELECT ${COLUMNS} FROM (
       SELECT g.id, row_number() OVER (ORDER BY ${order.sql}) AS n FROM games g ${clause}
       ORDER BY ${order.sql} LIMIT ? OFFSET ?) page
     JOIN games g ON g.id = page.id ORDER BY page.n`,
    [...order.bindings, ...bindings, ...order.bindings, limit, offset],
  );
  return rows;
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
  const ordered = (rank: Order) => (search.sort ? sort : { sql: `${rank.sql}, ${sort.sql}`, bindings: rank.bindings });
  const checked = await checkTextWords(knex, text);
  const { folded, words } = checked;
  const textPlan = search.sort ? orderedTextPlan(checked, where, search.page) : 'sortsEveryMatch';
  let found: Found = { rows: [], total: 0 };
  // A word no title holds cannot be inside a name: the text as typed is searched only when every word is.
  if (words.every((word) => word.known)) {
    const escaped = escapeLike(folded);
    // Text too short for a trigram matches the start of a word, which the index can find; "inside a
    // word" would read every name.
    const contains =
      folded.length >= SHORTEST_INDEXED
        ? { sql: ['g.name_folded LIKE ?'], bindings: [`%${escaped}%`] }
        : { sql: ['(g.name_folded LIKE ? OR g.name_folded LIKE ?)'], bindings: [`${escaped}%`, `% ${escaped}%`] };
    const rank = textRank(folded, '?');
    found = await findPage(knex, where, contains, ordered(rank), search.page, cacheTotal, textPlan);
  }
  const corrected = correctedWords(words);
  const unchanged = corrected.length === 1 && corrected[0] === words[0].word;
  if (found.total === 0 && corrected.length > 0 && !unchanged) {
    // Nothing contains the text: names holding every word, in any order, each corrected when no title
    // has it; names holding the corrected words together rank first.
    const phrase = corrected.join(' ');
    const every = { sql: corrected.map(() => 'g.name_folded LIKE ?'), bindings: corrected.map(likeContaining) };
    const rank = textRank(phrase, '?', true);
    found = await findPage(knex, where, every, ordered(rank), search.page, cacheTotal, textPlan);
  }
  return { rows: found.rows, page: pageObject(search.page, GAME_PAGE, found.total) };
}

type Order = { sql: string; bindings: Knex.RawBinding[] };

/**
 * A text in an order of its own. Walking the order's index reads about (offset + 24) x games / matches
 * rows; reading the matches first reads the matches. The planner cannot tell "%fuyu%" (71 names) from
 * "%sto%" (9,000), so the title words' counts decide: a walk only for a common text, a shallow page and no
 * other filter (a filter thins the matches out along the walk by a share no count here knows).
 */
export function orderedTextPlan(text: SearchText, where: Where, page: number): Plan {
  const { limit, offset } = pageWindow(page, GAME_PAGE);
  const names = text.names;
  if (names === null || where.sql.length > 0 || names === 0) return 'matchesFirst';
  // A walk reads rows through the table in the order's sequence, a few times dearer each than the name
  // index's bitmap: hence the factor of 4.
  return (offset + limit) * text.games * 4 < names * names ? 'walk' : 'matchesFirst';
}

/**
 * Rank 0: the name is the text; 1: it starts with it; 2: a word of it does; then (when `inside` is asked,
 * for matches that need not hold the text) 3: the text is inside the name; last, the rest.
 */
function textRank(text: string, folded: string, inside = false): Order {
  const escaped = escapeLike(text);
  return {
    sql: `CASE WHEN g.name_folded = ${folded} THEN 0 WHEN g.name_folded LIKE ${folded} THEN 1
      WHEN g.name_folded LIKE ${folded} THEN 2 ${inside ? `WHEN g.name_folded LIKE ${folded} THEN 3` : ''}
      ELSE 4 END`,
    bindings: [text, `${escaped}%`, `% ${escaped}%`, ...(inside ? [`%${escaped}%`] : [])],
  };
}
