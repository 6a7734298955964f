// The filters of GET /games (game-search.ts `filters`, which stays the word on what each one means) over
// the catalog's copy in memory. Each filter is a test of one game and, where the copy's indexes can list
// them, the games that may pass it (its candidates): a superset, so the test is always applied. A search
// starts from the fewest candidates any of its filters offers (copy-browse.ts).
// A NULL in the database is NONE or NaN here, and a comparison with it is false, as SQL's is; a test that
// SQL writes with IS NULL says so here too. A test suite runs both over generated searches and compares
// every answer (test/unit/catalog-copy.test.ts).
import { parseAgeFilter } from './age-ratings.js';
import { languageTerms } from './languages.js';
import { BROWSE_TYPES, usesOwnLibrary, type GameSearch } from './search-parameters.js';
import { NONE, type Postings } from './copy-columns.js';
import type { CatalogSnapshot, Valued } from './copy-indexes.js';
import { marksOf } from './copy-marks.js';

export interface Filter {
  test: (game: number) => boolean;
  /** Lists of positions whose union holds every game that passes; none when only a look at each tells. */
  candidates?: Int32Array[];
  /** The candidates are exactly the games that pass: a candidate needs no test of this filter. */
  exact?: boolean;
}

/** Whether the copy can answer a search: not a text, an engine's name or the reader's own library. */
export function answersInMemory(search: GameSearch): boolean {
  return !search.q?.trim() && answersFilters(search);
}

/** Whether the copy can answer a search's filters: all but an engine's name and the reader's own library. */
export function answersFilters(search: GameSearch): boolean {
  return !search.engines?.length && !usesOwnLibrary(search);
}

const DAY_MS = 86_400_000;
const day = (isoDate: string) =>
  Date.UTC(+isoDate.slice(0, 4), +isoDate.slice(5, 7) - 1, +isoDate.slice(8, 10)) / DAY_MS;

/** `date + interval 'n months'` as PostgreSQL adds it: the same day, or the month's last when it is shorter. */
function addMonths(isoDate: string, months: number): number {
  const year = +isoDate.slice(0, 4);
  const month = +isoDate.slice(5, 7) - 1 + months;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(+isoDate.slice(8, 10), last)) / DAY_MS;
}

/**
 * Games whose lists (of any of `columns`) hold any of `wanted`. The games are marked once, so a test is one
 * look, where searching each list for each game was the slowest part of a browse.
 */
function anyOf<V>(copy: CatalogSnapshot, columns: Postings<V>[], wanted: V[]): Filter {
  const lists = [...new Set(wanted)].flatMap((value) => columns.map((column) => column.get(value) ?? EMPTY));
  const marked = marksOf(copy);
  for (const list of lists) for (let k = 0; k < list.length; k += 1) marked[list[k]] = 1;
  return { test: (game) => marked[game] === 1, candidates: lists, exact: true };
}

/** Games whose list holds every one of `wanted` (a game is in a value's postings once, so counts add up). */
function allOf<V>(copy: CatalogSnapshot, column: Postings<V>, wanted: V[]): Filter {
  const lists = [...new Set(wanted)].map((value) => column.get(value) ?? EMPTY);
  const held = marksOf(copy);
  for (const list of lists) for (let k = 0; k < list.length; k += 1) held[list[k]] += 1;
  // The games of any one value hold the rest; the rarest is enough.
  const rarest = lists.reduce((a, b) => (b.length < a.length ? b : a));
  return { test: (game) => held[game] === lists.length, candidates: [rarest] };
}

const EMPTY = new Int32Array(0);

/** The games whose value of a small-valued column lies in [from, to] (either end open). */
function valuesBetween(copy: CatalogSnapshot, column: Valued, from = -Infinity, to = Infinity): Int32Array[] {
  const lists: Int32Array[] = [];
  for (const [value, games] of copy.index.byValue[column]) if (value >= from && value <= to) lists.push(games);
  return lists;
}

/** A range of an integer column: NULL passes neither end. */
function between(column: Int32Array, from = -Infinity, to = Infinity, candidates?: Int32Array[]): Filter {
  return { test: (game) => column[game] !== NONE && column[game] >= from && column[game] <= to, candidates };
}

/** A range of a small-valued column, whose games of each value are its exact candidates. */
function valueRange(copy: CatalogSnapshot, name: Valued, column: Int32Array, from = -Infinity, to = Infinity): Filter {
  return { ...between(column, from, to, valuesBetween(copy, name, from, to)), exact: true };
}

/**
 * The games with a word starting with a folded text too short for the name index (as game-text-search.ts
 * reads it: what follows the name's start or a space).
 */
export function shortTextGames(copy: CatalogSnapshot, folded: string): Int32Array {
  return copy.wordStarts.get(folded) ?? EMPTY;
}

/**
 * The filters of a search but its text; a game matches when it passes all of them. A search without a
 * text (`textual` false) is a browse, which hides the lesser-known games unless asked.
 */
export function gameFilters(copy: CatalogSnapshot, search: GameSearch, today: string, textual = false): Filter[] {
  const filters: Filter[] = [];
  const { having } = copy.index;
  const flag = (column: Uint8Array, games: Int32Array): Filter => ({
    test: (game) => column[game] === 1,
    candidates: [games],
    exact: true,
  });
  const facet = (column: keyof CatalogSnapshot['lists'], ids?: number[], mode?: 'any' | 'all') => {
    if (!ids?.length) return;
    filters.push(mode === 'all' ? allOf(copy, copy.lists[column], ids) : anyOf(copy, [copy.lists[column]], ids));
  };
  facet('platform_ids', search.platforms);
  facet('genre_ids', search.genres, search.genresMode);
  facet('theme_ids', search.themes, search.themesMode);
  facet('mode_ids', search.modes);
  facet('perspective_ids', search.perspectives);
  facet('franchise_ids', search.franchises);
  facet('series_ids', search.series);
  const browsing = !textual;
  if (browsing && !search.types && !search.obscure) filters.push(flag(copy.browsable, having.browsable));
  else {
    const types = new Set(search.types ?? (browsing ? BROWSE_TYPES : []));
    if (types.size) {
      filters.push({
        test: (game) => types.has(copy.type[game]),
        candidates: [...types].flatMap((type) => valuesBetween(copy, 'type', type, type)),
        exact: true,
      });
    }
    if (browsing && !search.obscure) filters.push(flag(copy.known, having.known));
  }
  if (search.publishers?.length) {
    const columns = search.role ? ([`${search.role}_ids`] as const) : (['publisher_ids', 'developer_ids'] as const);
    filters.push(
      anyOf(
        copy,
        columns.map((column) => copy.lists[column]),
        search.publishers,
      ),
    );
  }
  dateFilters(copy, search, today, filters);
  if (search.demo) filters.push(flag(copy.demo, having.demo));
  if (search.steam) filters.push(flag(copy.store, having.store));
  const atLeast = (column: Int32Array, name: Valued, min: number) => valueRange(copy, name, column, min);
  if (search.rated) filters.push(atLeast(copy.ratingCount, 'ratingCount', 1));
  if (search.reviewed) filters.push(atLeast(copy.reviewCount, 'reviewCount', 1));
  if (search.hideCancelled) {
    const hidden = new Set(['cancelled', 'rumored'].map((status) => copy.statuses.indexOf(status)));
    filters.push({ test: (game) => !hidden.has(copy.status[game]) });
  }
  languageFilter(copy, [copy.index.anyLanguage], search.language, filters);
  languageFilter(copy, [copy.languageLists.interface_languages], search.interface, filters);
  languageFilter(copy, [copy.languageLists.audio_languages], search.audio, filters);
  languageFilter(copy, [copy.languageLists.subtitle_languages], search.subtitles, filters);
  if (search.age) {
    const { board, step } = parseAgeFilter(search.age)!;
    filters.push(valueRange(copy, board, copy.ages[board], -Infinity, step));
  }
  if (search.rating !== undefined) {
    const min = Math.fround(search.rating);
    // NaN (NULL) fails the comparison.
    filters.push({ test: (game) => copy.rating[game] >= min, candidates: valuesBetween(copy, 'ratingFloor', min) });
  }
  if (search.votes !== undefined) filters.push(atLeast(copy.ratingCount, 'ratingCount', search.votes));
  if (search.libraries !== undefined) filters.push(atLeast(copy.libraryCount, 'libraryCount', search.libraries));
  if (search.status?.length) {
    const wanted = search.status.map((status) => copy.statuses.indexOf(status));
    filters.push({
      test: (game) => wanted.includes(copy.status[game]),
      candidates: wanted.flatMap((status) => valuesBetween(copy, 'status', status, status)),
      exact: true,
    });
  }
  if (search.hoursMin !== undefined || search.hoursMax !== undefined) {
    const [from, to] = [search.hoursMin ?? -Infinity, search.hoursMax ?? Infinity];
    filters.push(valueRange(copy, 'hours', copy.hours, from, to));
  }
  return filters;
}

function dateFilters(copy: CatalogSnapshot, search: GameSearch, today: string, filters: Filter[]): void {
  const now = day(today);
  const released = copy.statuses.indexOf('released');
  const days = copy.releaseDay;
  if (search.release === 'released') filters.push(between(days, -Infinity, now));
  if (search.release === 'upcoming') {
    filters.push({ test: (game) => (days[game] !== NONE ? days[game] > now : copy.status[game] !== released) });
  }
  if (search.period) {
    const year = today.slice(0, 4);
    const [from, to] = {
      'last-30-days': [now - 30, now],
      'last-90-days': [now - 90, now],
      'this-year': [day(`${year}-01-01`), day(`${year}-12-31`)],
      'next-3-months': [now, addMonths(today, 3)],
    }[search.period];
    // The games dated in the years the period spans hold its games.
    const years = valuesBetween(copy, 'dateYear', yearOf(from), yearOf(to));
    filters.push(between(days, from, to, years));
  }
  if (search.yearFrom !== undefined || search.yearTo !== undefined) {
    const [from, to] = [search.yearFrom ?? -Infinity, search.yearTo ?? Infinity];
    filters.push(valueRange(copy, 'releaseYear', copy.releaseYear, from, to));
  }
  if (search.anticipated) {
    filters.push({
      test: (game) => (days[game] === NONE || days[game] > now) && copy.hype[game] > 0,
      candidates: [copy.index.having.hyped],
    });
  }
}

const yearOf = (days: number) => new Date(days * DAY_MS).getUTCFullYear();

function languageFilter(
  copy: CatalogSnapshot,
  lists: Postings<string>[],
  codes: string[] | undefined,
  filters: Filter[],
) {
  if (!codes?.length) return;
  // As the database's filter: a code matches itself; `pt` matches any Portuguese because stored lists hold
  // the base too.
  filters.push(
    anyOf(
      copy,
      lists,
      codes.map((code) => languageTerms(code)[0]),
    ),
  );
}
