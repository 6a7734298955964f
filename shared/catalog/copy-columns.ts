// The browse columns of every game, read from the database into typed arrays (game i of the copy is the
// i-th by id), with each order of GET /games as a list of positions. What a filter tests and what an order
// sorts by is all here; the rows shown are still read from the database (copy-browse.ts).
//
// One read-only REPEATABLE READ transaction reads the version, the games and the orders, so the three
// agree. The orders are sorted by PostgreSQL (the name's collation, NULLS LAST, ties by id) and never
// re-implemented here.
import type { Knex } from 'knex';
import type { GameSort } from './search-parameters.js';
import { ORDER } from './orders.js';

/** For each value of a list column, the positions of the games whose list holds it (ascending, once each). */
export type Postings<V> = Map<V, Int32Array>;

export const AGE_COLUMNS = ['esrb', 'pegi', 'cero', 'usk', 'grac', 'class_ind', 'acb'] as const;
export const ID_LISTS = [
  'platform_ids',
  'genre_ids',
  'theme_ids',
  'mode_ids',
  'perspective_ids',
  'franchise_ids',
  'series_ids',
  'publisher_ids',
  'developer_ids',
] as const;
export const LANGUAGE_LISTS = ['interface_languages', 'audio_languages', 'subtitle_languages'] as const;
export type IdListColumn = (typeof ID_LISTS)[number];
export type LanguageColumn = (typeof LANGUAGE_LISTS)[number];

/** NULL in the integer columns: no game has it (ids, counts, years and hours are far from it). */
export const NONE = -2147483648;

export interface CatalogColumns {
  /** catalog_state.version the copy was read at. */
  version: number;
  size: number;
  ids: Int32Array;
  type: Int32Array;
  browsable: Uint8Array;
  /** popularity > 0 OR rating_count > 0 OR hype > 0, as the database computes it. */
  known: Uint8Array;
  /** Days since 1970-01-01, or NONE. */
  releaseDay: Int32Array;
  releaseYear: Int32Array;
  /** Index into `statuses`. */
  status: Uint8Array;
  statuses: string[];
  hours: Int32Array;
  /** The stored `real`, NaN for NULL (every comparison with NaN is false, as with NULL). */
  rating: Float32Array;
  ratingCount: Int32Array;
  reviewCount: Int32Array;
  libraryCount: Int32Array;
  hype: Int32Array;
  demo: Uint8Array;
  store: Uint8Array;
  ages: Record<(typeof AGE_COLUMNS)[number], Int32Array>;
  lists: Record<IdListColumn, Postings<number>>;
  languageLists: Record<LanguageColumn, Postings<string>>;
  /**
   * The first one and two characters of each word of the folded names (words as `LIKE '% x%'` sees them:
   * what follows the start or a space), for texts too short for the name index (SHORTEST_INDEXED).
   */
  wordStarts: Postings<string>;
  /** The games whose folded name is that short (a text's exact match ranks first). */
  shortNames: Postings<string>;
  /** Positions of the games in each order. */
  orders: Record<GameSort, Int32Array>;
}

// Each column comes as one text of every game's value, in the order the scan met them: the same order in
// every column of one statement, so the i-th values belong together. Lists come as each game's count and
// the values of all games. Text values are parted by U+001E, which no status or language code holds.
const SEP = '\x1e';
const joined = (sql: string, separator = ',') =>
  `string_agg(coalesce((${sql})::text, ''), E'${separator === ',' ? ',' : '\\x1e'}')`;
const SELECT_COLUMNS = `SELECT (SELECT version FROM catalog_state) AS version, ${[
  joined('id'),
  joined('type'),
  joined('browsable::int'),
  joined('(popularity > 0 OR rating_count > 0 OR hype > 0)::int'),
  joined("release_date - DATE '1970-01-01'"),
  joined('release_year'),
  joined('status', SEP),
  joined('hours_main'),
  joined('rating'),
  joined('rating_count'),
  joined('review_count'),
  joined('library_count'),
  joined('hype'),
  joined('demo_available::int'),
  joined('has_store::int'),
  ...AGE_COLUMNS.map((board) => joined(`age_${board}`)),
  ...ID_LISTS.flatMap((column) => [
    joined(`cardinality(${column})`),
    `string_agg(NULLIF(array_to_string(${column}, ','), ''), ',')`,
  ]),
  joined('name_folded', SEP),
  ...LANGUAGE_LISTS.flatMap((column) => [
    joined(`cardinality(${column})`),
    `string_agg(NULLIF(array_to_string(${column}, E'\\x1e'), ''), E'\\x1e')`,
  ]),
]
  .map((sql, k) => `${sql} AS c${k}`)
  .join(', ')} FROM games`;

const COMMA = 44;
const MINUS = 45;

/**
 * The integers of a comma-separated column into `out`, an empty value (NULL) as NONE. Read character by
 * character: splitting 300,000 values into strings and numbers took most of a second.
 */
function readInts(text: string | null, out: Int32Array): Int32Array {
  if (text === null) return out;
  let k = 0;
  let value = 0;
  let negative = false;
  let empty = true;
  for (let c = 0; c <= text.length; c += 1) {
    const code = c < text.length ? text.charCodeAt(c) : COMMA;
    if (code === COMMA) {
      out[k++] = empty ? NONE : negative ? -value : value;
      value = 0;
      negative = false;
      empty = true;
    } else if (code === MINUS) negative = true;
    else {
      value = value * 10 + code - 48;
      empty = false;
    }
  }
  return out;
}

const ints = (text: string | null, size: number) => readInts(text, new Int32Array(size));
const flags = (text: string | null, size: number) =>
  Uint8Array.from(ints(text, size), (value) => (value === 1 ? 1 : 0));

/** Postings from each game's count of values and the values of all games, in the games' order. */
function postings<V>(counts: string | null, values: V[] | Int32Array, size: number): Postings<V> {
  const each = ints(counts, size);
  const found = new Map<V, number[]>();
  let k = 0;
  for (let game = 0; game < size; game += 1) {
    for (const end = k + each[game]; k < end; k += 1) {
      const value = values[k] as V;
      let games = found.get(value);
      if (!games) found.set(value, (games = []));
      // A list holding a value twice names the game once.
      if (games[games.length - 1] !== game) games.push(game);
    }
  }
  return new Map([...found].map(([value, games]) => [value, Int32Array.from(games)]));
}

function idPostings(counts: string | null, values: string | null, size: number): Postings<number> {
  const total = ints(counts, size).reduce((sum, count) => sum + count, 0);
  return postings(counts, readInts(values, new Int32Array(total)), size);
}

/** Text values parted by SEP; a value holding SEP itself would shift the rest, so the count is checked. */
function texts(text: string | null, count: number): string[] {
  const values = text === null ? [] : text.split(SEP);
  if (values.length !== count) throw new Error(`catalog copy: ${values.length} text values where ${count} were read`);
  return values;
}

function textPostings(counts: string | null, values: string | null, size: number): Postings<string> {
  const total = ints(counts, size).reduce((sum, count) => sum + count, 0);
  return postings(counts, texts(values, total), size);
}

/** The word starts and the short names of the folded names (see CatalogColumns). */
function nameIndexes(names: string[]): Pick<CatalogColumns, 'wordStarts' | 'shortNames'> {
  const starts = new Map<string, number[]>();
  const short = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, game: number) => {
    const games = map.get(key);
    if (!games) map.set(key, [game]);
    else if (games[games.length - 1] !== game) games.push(game);
  };
  names.forEach((name, game) => {
    if (name.length < 3) add(short, name, game);
    for (const word of name.split(' ')) {
      if (word.length >= 1) add(starts, word.slice(0, 1), game);
      if (word.length >= 2) add(starts, word.slice(0, 2), game);
    }
  });
  const typed = (map: Map<string, number[]>) => new Map([...map].map(([key, games]) => [key, Int32Array.from(games)]));
  return { wordStarts: typed(starts), shortNames: typed(short) };
}

/** Each game's position in the copy by its id: a flat table while ids are dense, as serial ids are. */
function positionsById(ids: Int32Array): (id: number) => number {
  const max = ids.reduce((a, b) => Math.max(a, b), 0);
  if (max > 4 * ids.length + 1_000_000) {
    const map = new Map<number, number>();
    ids.forEach((id, i) => map.set(id, i));
    return (id) => map.get(id)!;
  }
  const table = new Int32Array(max + 1);
  ids.forEach((id, i) => (table[id] = i));
  return (id) => table[id];
}

/** Reads the copy: about a second of the database's time and a few hundred milliseconds of the process's. */
export async function readCatalogColumns(knex: Knex): Promise<CatalogColumns> {
  const { columns, orders } = await knex.transaction(
    async (trx) => {
      // The orders are read from sorted subqueries; a parallel plan could hand an aggregate their rows
      // out of order, a single process never does. A score is written with as many digits as tell it
      // apart (the default, set in case a server has another), so it reads back as the stored `real`.
      await trx.raw('SET LOCAL max_parallel_workers_per_gather = 0');
      await trx.raw('SET LOCAL extra_float_digits = 1');
      const { rows } = await trx.raw<{ rows: Array<Record<string, string | null>> }>(SELECT_COLUMNS);
      const orders = {} as Record<GameSort, string | null>;
      for (const [sort, order] of Object.entries(ORDER) as Array<[GameSort, string]>) {
        const { rows: sorted } = await trx.raw<{ rows: Array<{ ids: string | null }> }>(
          `SELECT string_agg(id::text, ',') AS ids FROM (SELECT g.id FROM games g ORDER BY ${order}) sorted`,
        );
        orders[sort] = sorted[0].ids;
      }
      // Without its version a copy could never be checked against the database (the row a migration made).
      if (rows[0].version === null) throw new Error('catalog copy: catalog_state has no version row');
      return { columns: rows[0], orders };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
  return build(columns, orders);
}

function build(columns: Record<string, string | null>, orders: Record<GameSort, string | null>): CatalogColumns {
  let next = 0;
  const column = () => columns[`c${next++}`];
  const idText = column();
  let size = idText === null ? 0 : 1;
  for (let c = 0; idText !== null && c < idText.length; c += 1) if (idText.charCodeAt(c) === COMMA) size += 1;
  const snapshot = emptySnapshot(Number(columns.version), size);
  snapshot.ids = ints(idText, size);
  snapshot.type = ints(column(), size);
  snapshot.browsable = flags(column(), size);
  snapshot.known = flags(column(), size);
  snapshot.releaseDay = ints(column(), size);
  snapshot.releaseYear = ints(column(), size);
  const statuses = new Map<string, number>();
  texts(column(), size).forEach((status, i) => {
    if (!statuses.has(status)) statuses.set(status, statuses.size);
    snapshot.status[i] = statuses.get(status)!;
  });
  snapshot.statuses = [...statuses.keys()];
  snapshot.hours = ints(column(), size);
  const ratings = column();
  (ratings === null ? [] : ratings.split(',')).forEach(
    (value, i) => (snapshot.rating[i] = value === '' ? NaN : Number(value)),
  );
  snapshot.ratingCount = ints(column(), size);
  snapshot.reviewCount = ints(column(), size);
  snapshot.libraryCount = ints(column(), size);
  snapshot.hype = ints(column(), size);
  snapshot.demo = flags(column(), size);
  snapshot.store = flags(column(), size);
  for (const board of AGE_COLUMNS) snapshot.ages[board] = ints(column(), size);
  for (const list of ID_LISTS) snapshot.lists[list] = idPostings(column(), column(), size);
  Object.assign(snapshot, nameIndexes(texts(column(), size)));
  for (const list of LANGUAGE_LISTS) snapshot.languageLists[list] = textPostings(column(), column(), size);
  const position = positionsById(snapshot.ids);
  for (const sort of Object.keys(ORDER) as GameSort[]) {
    const order = ints(orders[sort], size);
    for (let k = 0; k < size; k += 1) order[k] = position(order[k]);
    snapshot.orders[sort] = order;
  }
  return snapshot;
}

function emptySnapshot(version: number, size: number): CatalogColumns {
  const ints = () => new Int32Array(size);
  const flags = () => new Uint8Array(size);
  return {
    version,
    size,
    ids: ints(),
    type: ints(),
    browsable: flags(),
    known: flags(),
    releaseDay: ints(),
    releaseYear: ints(),
    status: flags(),
    statuses: [],
    hours: ints(),
    rating: new Float32Array(size),
    ratingCount: ints(),
    reviewCount: ints(),
    libraryCount: ints(),
    hype: ints(),
    demo: flags(),
    store: flags(),
    ages: Object.fromEntries(AGE_COLUMNS.map((board) => [board, ints()])) as CatalogColumns['ages'],
    lists: {} as CatalogColumns['lists'],
    languageLists: {} as CatalogColumns['languageLists'],
    wordStarts: new Map(),
    shortNames: new Map(),
    orders: {} as CatalogColumns['orders'],
  };
}
