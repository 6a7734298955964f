// The browse columns of every game, read from the database into typed arrays (game i of the copy is the
// i-th by id), with each order of GET /games as a list of positions. What a filter tests and what an order
// sorts by is all here; the rows shown are still read from the database (copy-browse.ts).
//
// One read-only REPEATABLE READ transaction reads the version, the games and the orders, so the three
// agree. The orders are sorted by PostgreSQL (the name's collation, NULLS LAST, ties by id) and never
// re-implemented here.
import type { Knex } from 'knex';
import { liftStatementTimeout } from '../platform/db/timeouts.js';
import type { GameSort } from './search-parameters.js';
import { ORDER } from './orders.js';
import { buildTitleIndex, nameOf, type TitleIndex } from './copy-text-index.js';

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
  /** The folded names and their words (copy-text-index.ts). */
  titles: TitleIndex;
  /** Positions of the games in each order. */
  orders: Record<GameSort, Int32Array>;
}

// Each column comes as one text of every game's value, in the order the scan met them: the same order in
// every column of one statement, so the i-th values belong together. Lists come as each game's count and
// the values of all games. Text values are parted by U+001E, which no status or language code holds.
const SEP = '\x1e';
const SEP_SQL = "E'\\x1e'";
const joined = (sql: string, separator = "','") => `string_agg(coalesce((${sql})::text, ''), ${separator})`;
const SELECT_COLUMNS = `SELECT (SELECT version FROM catalog_state) AS version, ${[
  joined('id'),
  joined('type'),
  joined('browsable::int'),
  joined('(popularity > 0 OR rating_count > 0 OR hype > 0)::int'),
  joined("release_date - DATE '1970-01-01'"),
  joined('release_year'),
  joined('status', SEP_SQL),
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
  joined('name_folded', SEP_SQL),
  ...LANGUAGE_LISTS.flatMap((column) => [
    joined(`cardinality(${column})`),
    `string_agg(NULLIF(array_to_string(${column}, ${SEP_SQL}), ''), ${SEP_SQL})`,
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

/** Gathers postings a game at a time, games in ascending order; a game given a value twice is kept once. */
export class PostingsBuilder<V> {
  private readonly found = new Map<V, number[]>();

  add(value: V, game: number): void {
    const games = this.found.get(value);
    if (!games) this.found.set(value, [game]);
    else if (games[games.length - 1] !== game) games.push(game);
  }

  build(): Postings<V> {
    return new Map([...this.found].map(([value, games]) => [value, Int32Array.from(games)]));
  }
}

/** Postings from each game's count of values and the values of all games, in the games' order. */
function postings<V>(each: Int32Array, values: ArrayLike<V>): Postings<V> {
  const built = new PostingsBuilder<V>();
  let k = 0;
  each.forEach((count, game) => {
    for (const end = k + count; k < end; k += 1) built.add(values[k], game);
  });
  return built.build();
}

const sum = (counts: Int32Array) => counts.reduce((total, count) => total + count, 0);

function idPostings(counts: string | null, values: string | null, size: number): Postings<number> {
  const each = ints(counts, size);
  return postings(each, readInts(values, new Int32Array(sum(each))));
}

/** Text values parted by SEP; a value holding SEP itself would shift the rest, so the count is checked. */
function texts(text: string | null, count: number): string[] {
  const values = text === null ? [] : text.split(SEP);
  if (values.length !== count) throw new Error(`catalog copy: ${values.length} text values where ${count} were read`);
  return values;
}

function textPostings(counts: string | null, values: string | null, size: number): Postings<string> {
  const each = ints(counts, size);
  return postings(each, texts(values, sum(each)));
}

/** The title index and the word starts of the folded names (see CatalogColumns). */
function nameIndexes(joined: string | null, size: number): Pick<CatalogColumns, 'wordStarts' | 'titles'> {
  const titles = buildTitleIndex(joined ?? '', size);
  const starts = new PostingsBuilder<string>();
  for (let game = 0; game < size; game += 1) {
    for (const word of nameOf(titles, game).split(' ')) {
      if (word.length >= 1) starts.add(word.slice(0, 1), game);
      if (word.length >= 2) starts.add(word.slice(0, 2), game);
    }
  }
  return { wordStarts: starts.build(), titles };
}

/** Statuses as indexes into the list of those met. */
function statusesOf(text: string | null, size: number): Pick<CatalogColumns, 'status' | 'statuses'> {
  const known = new Map<string, number>();
  const status = new Uint8Array(size);
  texts(text, size).forEach((value, i) => {
    if (!known.has(value)) known.set(value, known.size);
    status[i] = known.get(value)!;
  });
  return { status, statuses: [...known.keys()] };
}

/** Scores as stored `real`s, NaN for NULL. */
function ratingsOf(text: string | null, size: number): Float32Array {
  const ratings = new Float32Array(size);
  (text === null ? [] : text.split(',')).forEach((value, i) => (ratings[i] = value === '' ? NaN : Number(value)));
  return ratings;
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
      // A read of every game takes seconds: the web's statement limit (meant for requests) is lifted for it.
      await liftStatementTimeout(trx);
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
  // The columns in SELECT_COLUMNS' order: the object's fields are read in the order they are written.
  // Each text is let go once read, so the read's peak is not every column's text beside every array.
  const column = () => {
    const key = `c${next++}`;
    const text = columns[key];
    delete columns[key];
    return text;
  };
  const idText = column();
  let size = idText === null ? 0 : 1;
  for (let c = 0; idText !== null && c < idText.length; c += 1) if (idText.charCodeAt(c) === COMMA) size += 1;
  const ids = ints(idText, size);
  const copy: CatalogColumns = {
    version: Number(columns.version),
    size,
    ids,
    type: ints(column(), size),
    browsable: flags(column(), size),
    known: flags(column(), size),
    releaseDay: ints(column(), size),
    releaseYear: ints(column(), size),
    ...statusesOf(column(), size),
    hours: ints(column(), size),
    rating: ratingsOf(column(), size),
    ratingCount: ints(column(), size),
    reviewCount: ints(column(), size),
    libraryCount: ints(column(), size),
    hype: ints(column(), size),
    demo: flags(column(), size),
    store: flags(column(), size),
    ages: Object.fromEntries(AGE_COLUMNS.map((board) => [board, ints(column(), size)])) as CatalogColumns['ages'],
    lists: Object.fromEntries(
      ID_LISTS.map((list) => [list, idPostings(column(), column(), size)]),
    ) as CatalogColumns['lists'],
    ...nameIndexes(column(), size),
    languageLists: Object.fromEntries(
      LANGUAGE_LISTS.map((list) => [list, textPostings(column(), column(), size)]),
    ) as CatalogColumns['languageLists'],
    orders: {} as CatalogColumns['orders'],
  };
  const position = positionsById(ids);
  for (const sort of Object.keys(ORDER) as GameSort[]) {
    const order = ints(orders[sort], size);
    delete orders[sort];
    for (let k = 0; k < size; k += 1) order[k] = position(order[k]);
    copy.orders[sort] = order;
  }
  return copy;
}
