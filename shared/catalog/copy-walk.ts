// A page of the catalog's copy in an order, and the true total of the games that pass every filter
// (copy-filters.ts). The copy counts every match: it costs a pass over the fewest candidates, where the
// database stops counting at TOTAL_CAP (game-pages.ts).
import type { GameSort } from './search-parameters.js';
import type { CatalogSnapshot } from './copy-indexes.js';
import type { Filter } from './copy-filters.js';
import { marksOf } from './copy-marks.js';

export interface CopyPage {
  /** The page's game ids. */
  ids: number[];
  total: number;
}

export type Window = { limit: number; offset: number };

/** One test of every filter. */
export function passesAll(filters: Filter[]): (game: number) => boolean {
  const tests = filters.map((filter) => filter.test);
  return (game: number) => {
    for (let t = 0; t < tests.length; t += 1) if (!tests[t](game)) return false;
    return true;
  };
}

/** The filter offering the fewest candidates, or null when none offers fewer than every game. */
function fewestFilter(copy: CatalogSnapshot, filters: Filter[]): { filter: Filter; size: number } | null {
  let fewest: { filter: Filter; size: number } | null = null;
  for (const filter of filters) {
    if (!filter.candidates) continue;
    const size = filter.candidates.reduce((n, list) => n + list.length, 0);
    if (size < (fewest?.size ?? copy.size)) fewest = { filter, size };
  }
  return fewest;
}

/**
 * Calls `each` with every game that passes, each once, in no particular order: the fewest candidates
 * tested (by the other filters only, when the candidates are exactly the games passing their own), or
 * every game.
 */
function eachMatch(copy: CatalogSnapshot, filters: Filter[], each: (game: number) => void): void {
  const fewest = fewestFilter(copy, filters);
  if (!fewest) {
    const passes = passesAll(filters);
    for (let game = 0; game < copy.size; game += 1) if (passes(game)) each(game);
    return;
  }
  const { candidates, exact } = fewest.filter;
  const passes = passesAll(exact ? filters.filter((filter) => filter !== fewest.filter) : filters);
  // A game in several lists (a game of two wanted genres) is kept once.
  const seen = candidates!.length > 1 ? marksOf(copy) : null;
  for (const list of candidates!) {
    for (let k = 0; k < list.length; k += 1) {
      const game = list[k];
      if (seen) {
        if (seen[game] === 1) continue;
        seen[game] = 1;
      }
      if (passes(game)) each(game);
    }
  }
}

/** The positions of the games that pass, in no particular order and each once. */
export function matching(copy: CatalogSnapshot, filters: Filter[]): Int32Array {
  const found = new Int32Array(fewestFilter(copy, filters)?.size ?? copy.size);
  let count = 0;
  eachMatch(copy, filters, (game) => (found[count++] = game));
  return found.subarray(0, count);
}

/** How many games pass: a list's length when one exact list is the only filter. */
function countMatches(copy: CatalogSnapshot, filters: Filter[]): number {
  const only = filters.length === 1 ? filters[0] : null;
  if (only?.exact && only.candidates!.length === 1) return only.candidates![0].length;
  let count = 0;
  eachMatch(copy, filters, () => (count += 1));
  return count;
}

/**
 * The page's ids in `sort` and the total. The matches are counted first; the page then comes from walking
 * the order until it is full, when the matches are dense enough for that walk to be shorter than a look
 * at the fewest candidates, or else from marking each match at its place in the order and reading the
 * places from the first (a sequential read, where sorting 75,000 places took milliseconds).
 */
export function walk(copy: CatalogSnapshot, filters: Filter[], sort: GameSort, { limit, offset }: Window): CopyPage {
  const order = copy.orders[sort];
  const ids: number[] = [];
  const end = offset + limit;
  const total = countMatches(copy, filters);
  const offered = fewestFilter(copy, filters)?.size ?? copy.size;
  if (total > 0 && (Math.min(end, total) * copy.size) / total < offered) {
    const passes = passesAll(filters);
    for (let k = 0, counted = 0; k < order.length && counted < end; k += 1) {
      const game = order[k];
      if (!passes(game)) continue;
      if (counted >= offset) ids.push(copy.ids[game]);
      counted += 1;
    }
    return { ids, total };
  }
  if (offset >= total) return { ids, total };
  const rank = copy.index.ranks[sort];
  const placed = marksOf(copy);
  eachMatch(copy, filters, (game) => (placed[rank[game]] = 1));
  const last = Math.min(end, total);
  for (let place = 0, counted = 0; counted < last; place += 1) {
    if (placed[place] === 0) continue;
    if (counted >= offset) ids.push(copy.ids[order[place]]);
    counted += 1;
  }
  return { ids, total };
}

/** The page of `games` (positions), already in their order, as ids. */
export function slicePage(copy: CatalogSnapshot, games: ArrayLike<number>, { limit, offset }: Window): number[] {
  const ids: number[] = [];
  for (let k = offset; k < Math.min(games.length, offset + limit); k += 1) ids.push(copy.ids[games[k]]);
  return ids;
}
