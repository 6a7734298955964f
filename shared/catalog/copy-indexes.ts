// What lets a search of the catalog's copy look at only the games that may match: for each flag, the
// games that have it; for each small-valued column (type, status, year, hours, scores, counts, the age
// boards), the games of each value. A filter offers these as its candidates (copy-filters.ts), and the
// fewest are walked.
import type { Knex } from 'knex';
import type { GameSort } from './search-parameters.js';
import {
  AGE_COLUMNS,
  NONE,
  PostingsBuilder,
  readCatalogColumns,
  type CatalogColumns,
  type Postings,
} from './copy-columns.js';

export const FLAGS = ['browsable', 'known', 'demo', 'store', 'hyped'] as const;
/**
 * `dateYear` is the year of the release date (release_year is NULL outside 1950 to 2100, the date is not);
 * `ratingFloor` the score's whole part (a score of at least a whole number is one whose whole part is).
 */
export const VALUED = [
  'type',
  'status',
  'releaseYear',
  'dateYear',
  'hours',
  'ratingFloor',
  'ratingCount',
  'reviewCount',
  'libraryCount',
  ...AGE_COLUMNS,
] as const;
export type Flag = (typeof FLAGS)[number];
export type Valued = (typeof VALUED)[number];

export interface CopyIndexes {
  /** The positions of the games with each flag, ascending. */
  having: Record<Flag, Int32Array>;
  /** The positions of the games of each value, ascending; NULL has none. */
  byValue: Record<Valued, Postings<number>>;
  /** For each language code, the games whose interface, audio or subtitle lists hold it (`language`). */
  anyLanguage: Postings<string>;
  /** Each game's place in each order (the inverse of `orders`). */
  ranks: Record<GameSort, Int32Array>;
}

/** The games of a column's values, ascending, with NONE (NULL) left out. */
function postingsOf(column: ArrayLike<number>): Postings<number> {
  const built = new PostingsBuilder<number>();
  for (let game = 0; game < column.length; game += 1) if (column[game] !== NONE) built.add(column[game], game);
  return built.build();
}

/** For each value, the games any of the columns lists it for, ascending and once each. */
function unionOf<V>(columns: Postings<V>[], size: number): Postings<V> {
  const union = new Map<V, Int32Array>();
  const marks = new Uint8Array(size);
  for (const value of new Set(columns.flatMap((column) => [...column.keys()]))) {
    marks.fill(0);
    for (const column of columns) for (const game of column.get(value) ?? []) marks[game] = 1;
    union.set(
      value,
      positionsWhere(size, (game) => marks[game] === 1),
    );
  }
  return union;
}

function positionsWhere(size: number, has: (game: number) => boolean): Int32Array {
  const games: number[] = [];
  for (let game = 0; game < size; game += 1) if (has(game)) games.push(game);
  return Int32Array.from(games);
}

function indexCopy(copy: CatalogColumns): CopyIndexes {
  const where = (has: (game: number) => boolean) => positionsWhere(copy.size, has);
  const having: Record<Flag, Int32Array> = {
    browsable: where((game) => copy.browsable[game] === 1),
    known: where((game) => copy.known[game] === 1),
    demo: where((game) => copy.demo[game] === 1),
    store: where((game) => copy.store[game] === 1),
    hyped: where((game) => copy.hype[game] > 0),
  };
  const columns: Record<Valued, ArrayLike<number>> = {
    type: copy.type,
    status: copy.status,
    releaseYear: copy.releaseYear,
    dateYear: copy.releaseDay.map((day) => (day === NONE ? NONE : new Date(day * 86_400_000).getUTCFullYear())),
    hours: copy.hours,
    ratingFloor: Int32Array.from(copy.rating, (rating) => (Number.isNaN(rating) ? NONE : Math.floor(rating))),
    ratingCount: copy.ratingCount,
    reviewCount: copy.reviewCount,
    libraryCount: copy.libraryCount,
    ...copy.ages,
  };
  const byValue = Object.fromEntries(VALUED.map((name) => [name, postingsOf(columns[name])])) as CopyIndexes['byValue'];
  const ranks = {} as Record<GameSort, Int32Array>;
  for (const [sort, order] of Object.entries(copy.orders) as Array<[GameSort, Int32Array]>) {
    const rank = new Int32Array(copy.size);
    for (let k = 0; k < order.length; k += 1) rank[order[k]] = k;
    ranks[sort] = rank;
  }
  return { having, byValue, anyLanguage: unionOf(Object.values(copy.languageLists), copy.size), ranks };
}

/** The catalog's copy: its columns and what is built from them. */
export type CatalogSnapshot = CatalogColumns & { index: CopyIndexes };

export async function readCatalogSnapshot(knex: Knex): Promise<CatalogSnapshot> {
  const columns = await readCatalogColumns(knex);
  return { ...columns, index: indexCopy(columns) };
}
