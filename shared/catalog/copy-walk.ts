// A page of the catalog's copy in an order, and the true total of the games that pass every filter
// (copy-filters.ts). The copy counts every match: it costs a pass over the fewest candidates, where the
// database stops counting at TOTAL_CAP (game-pages.ts).
import type { GameSort } from './search-parameters.js';
import type { CatalogSnapshot } from './copy-indexes.js';
import type { Filter } from './copy-filters.js';

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

/** The fewest candidates any filter offers, or null when none offers fewer than every game. */
function fewestCandidates(copy: CatalogSnapshot, filters: Filter[]): Int32Array[] | null {
  let fewest: Int32Array[] | null = null;
  let size = copy.size;
  for (const filter of filters) {
    if (!filter.candidates) continue;
    const offered = filter.candidates.reduce((n, list) => n + list.length, 0);
    if (offered < size) [fewest, size] = [filter.candidates, offered];
  }
  return fewest;
}

/**
 * The positions of the games that pass, in no particular order and each once: those among the fewest
 * candidates, or every game.
 */
export function matching(copy: CatalogSnapshot, filters: Filter[]): Int32Array {
  const passes = passesAll(filters);
  const lists = fewestCandidates(copy, filters);
  const found = new Int32Array(lists ? lists.reduce((n, list) => n + list.length, 0) : copy.size);
  let count = 0;
  if (!lists) {
    for (let game = 0; game < copy.size; game += 1) if (passes(game)) found[count++] = game;
    return found.subarray(0, count);
  }
  // A game in several lists (a game of two wanted genres) is kept once.
  const seen = lists.length > 1 ? new Uint8Array(copy.size) : null;
  for (const list of lists) {
    for (let k = 0; k < list.length; k += 1) {
      const game = list[k];
      if (seen) {
        if (seen[game] === 1) continue;
        seen[game] = 1;
      }
      if (passes(game)) found[count++] = game;
    }
  }
  return found.subarray(0, count);
}

/**
 * The page's ids in `sort` and the total. The fewest candidates are tested once, which counts the matches;
 * the page then comes from walking the order until it is full, when the matches are dense enough for
 * that walk to be short, or else from marking each match at its place in the order and reading the places
 * from the first (a sequential read, where sorting 75,000 places took milliseconds). With no filter
 * offering fewer candidates than every game, the order is walked through, testing each.
 */
export function walk(copy: CatalogSnapshot, filters: Filter[], sort: GameSort, { limit, offset }: Window): CopyPage {
  const order = copy.orders[sort];
  const passes = passesAll(filters);
  const ids: number[] = [];
  const end = offset + limit;
  const lists = fewestCandidates(copy, filters);
  if (!lists) {
    let total = 0;
    for (let k = 0; k < order.length; k += 1) {
      const game = order[k];
      if (!passes(game)) continue;
      if (total >= offset && total < end) ids.push(copy.ids[game]);
      total += 1;
    }
    return { ids, total };
  }
  const found = matching(copy, filters);
  const total = found.length;
  const offered = lists.reduce((n, list) => n + list.length, 0);
  if (total > 0 && (end * copy.size) / total < offered) {
    for (let k = 0, counted = 0; k < order.length && counted < end; k += 1) {
      const game = order[k];
      if (!passes(game)) continue;
      if (counted >= offset) ids.push(copy.ids[game]);
      counted += 1;
    }
    return { ids, total };
  }
  const rank = copy.index.ranks[sort];
  const placed = new Uint8Array(copy.size);
  for (let k = 0; k < total; k += 1) placed[rank[found[k]]] = 1;
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
