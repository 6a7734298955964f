// Browsing the catalog from the web process's copy of it (copy-columns.ts, copy-indexes.ts): the filters
// are tested and the order walked in memory, and only the page's rows are read, with the catalog's version
// in the same statement. A browse read from the database walks an order's index through every game a filter
// leaves out (a platform's games by release date, page 82: 130,000 index entries, 45 ms of the database);
// the copy finds the same page in about a millisecond of the process's time (bench/README.md).
//
// The web process reads its copy when it starts (a process without one, at its first browse), while the
// database answers, and reads it again when the version read with a page is not its own (a catalog
// import, or catalog.stats moving a count): that page and those after it come from the database until
// the new copy is in. So an answer never comes from an older catalog than the database's.
import type { Knex } from 'knex';
import { queryPrepared } from '../platform/db/prepared.js';
import { GAME_COLUMNS, TOTAL_CAP, type Found } from './game-pages.js';
import type { GameRow } from './rows.js';
import type { GameSearch, GameSort } from './search-parameters.js';
import { readCatalogSnapshot, type CatalogSnapshot } from './copy-indexes.js';
import { answersInMemory, answersShortText, gameFilters, type Filter } from './copy-filters.js';

interface Held {
  copy: CatalogSnapshot | null;
  reading: Promise<CatalogSnapshot | null> | null;
  /** When a browse may start the next read. */
  nextReadAt: number;
}

/**
 * A browse starts a read at most this often: a read that failed (the database away) is not tried again at
 * once, and a catalog changing all the time (an import of many statements) costs a read every ten seconds,
 * not one after another. Meanwhile the database answers.
 */
const READ_INTERVAL_MS = 10_000;
const held = new WeakMap<Knex, Held>();
let enabled = true;

/** Benchmarks time the database's own answers with the copy switched off. */
export function useCatalogCopy(on: boolean): void {
  enabled = on;
}

function holder(knex: Knex): Held {
  let state = held.get(knex);
  if (!state) held.set(knex, (state = { copy: null, reading: null, nextReadAt: -Infinity }));
  return state;
}

/**
 * Reads the copy, in a read that starts after this call (one under way waits: it may have begun before a
 * change the caller has made); resolves to the copy read, or null when the read failed and the database
 * answers until a browse tries again.
 */
export async function readCatalogCopy(knex: Knex): Promise<CatalogSnapshot | null> {
  const state = holder(knex);
  if (state.reading) await state.reading;
  return startRead(knex, state);
}

/** Starts a read unless one is under way, and answers that one. */
function startRead(knex: Knex, state: Held): Promise<CatalogSnapshot | null> {
  if (!state.reading) {
    state.nextReadAt = Date.now() + READ_INTERVAL_MS;
    state.reading = readCatalogSnapshot(knex)
      .then(
        (copy) => (state.copy = copy),
        () => null,
      )
      .finally(() => (state.reading = null));
  }
  return state.reading;
}

/** A read started by a browse, unless one was started less than READ_INTERVAL_MS ago. */
function readWhenDue(knex: Knex, state: Held): void {
  if (Date.now() >= state.nextReadAt) void startRead(knex, state);
}

/** The copy a process holds (for its metrics), or null while it has none. */
export function catalogCopyInHand(knex: Knex): { games: number; version: number } | null {
  const copy = held.get(knex)?.copy;
  return copy ? { games: copy.size, version: copy.version } : null;
}

/** A page of the browse and its total from the copy; null when the database must answer. */
export async function browseFromCopy(
  knex: Knex,
  search: GameSearch,
  window: { limit: number; offset: number },
  today: string,
): Promise<Found | null> {
  if (!answersInMemory(search)) return null;
  const copy = currentCopy(knex);
  if (!copy) return null;
  const found = walk(copy, gameFilters(copy, search, today), search.sort ?? 'popular', window);
  return pageRows(knex, copy, found);
}

/**
 * A page of a text too short for the name index (`folded`, as game-text-search.ts folds it) from the copy,
 * as that file reads it: names with a word starting with the text, in the order asked, or else the names
 * that are the text first and the rest by popularity. Null when the database must answer.
 */
export async function shortTextFromCopy(
  knex: Knex,
  search: GameSearch,
  folded: string,
  window: { limit: number; offset: number },
  today: string,
): Promise<Found | null> {
  if (!answersShortText(search, folded)) return null;
  const copy = currentCopy(knex);
  if (!copy) return null;
  const filters = gameFilters(copy, search, today, folded);
  if (search.sort) return pageRows(knex, copy, walk(copy, filters, search.sort, window));
  const popular = copy.index.ranks.popular;
  const exact = [...(copy.shortNames.get(folded) ?? [])]
    .filter((game) => filters.every((filter) => filter.test(game)))
    .sort((a, b) => popular[a] - popular[b]);
  const named = new Set(exact);
  const first = exact.slice(window.offset, window.offset + window.limit);
  const rest = walk(copy, [...filters, { test: (game) => !named.has(game) }], 'popular', {
    offset: Math.max(0, window.offset - exact.length),
    limit: window.limit - first.length,
  });
  return pageRows(knex, copy, {
    ids: [...first.map((game) => copy.ids[game]), ...rest.ids],
    total: Math.min(TOTAL_CAP, exact.length + rest.total),
  });
}

/** The copy, when it is in and the copy is on; else null, starting a read when none is under way. */
function currentCopy(knex: Knex): CatalogSnapshot | null {
  if (!enabled) return null;
  const state = holder(knex);
  if (!state.copy) readWhenDue(knex, state);
  return state.copy;
}

// Prepared: every browse of the copy runs it, and its plan (24 primary key lookups) never changes.
const PAGE_ROWS = `SELECT s.version, ${GAME_COLUMNS} FROM catalog_state s LEFT JOIN games g ON g.id = ANY($1::int[])`;

/** The page's rows, read with the catalog's version: null, and a new read of the copy, when it moved. */
async function pageRows(knex: Knex, copy: CatalogSnapshot, { ids, total }: { ids: number[]; total: number }) {
  const rows = (await queryPrepared(knex, 'jogatina_catalog_copy_page', PAGE_ROWS, [ids])) as unknown as Array<
    GameRow & { version: string }
  >;
  if (Number(rows[0]?.version) !== copy.version) {
    const state = holder(knex);
    if (state.copy === copy) state.copy = null;
    readWhenDue(knex, state);
    return null;
  }
  const byId = new Map(rows.filter((row) => row.id !== null).map(({ version: _, ...row }) => [row.id, row]));
  return { rows: ids.map((id) => byId.get(id)!), total };
}

/**
 * The page's ids and the total (up to the cap), by the cheaper of two ways, each testing games one by one:
 * the fewest candidates a filter offers are tested, and those that pass are read in the order's sequence;
 * or the order is walked testing each game until the cap's matches are met, which comes soon when the
 * filters together are common. The walk's length is guessed from the candidates' shares of the catalog, as
 * if the filters were independent (a filter without candidates counted as keeping half).
 */
export function walk(
  copy: CatalogSnapshot,
  filters: Filter[],
  sort: GameSort,
  { limit, offset }: { limit: number; offset: number },
): { ids: number[]; total: number } {
  const tests = filters.map((filter) => filter.test);
  const passes = (game: number) => {
    for (let t = 0; t < tests.length; t += 1) if (!tests[t](game)) return false;
    return true;
  };
  const order = copy.orders[sort];
  const offered = filters.map((filter) => ({
    lists: filter.candidates,
    size: filter.candidates?.reduce((n, list) => n + list.length, 0) ?? copy.size / 2,
  }));
  const share = offered.reduce((product, { size }) => product * Math.min(1, size / copy.size), 1);
  const walked = Math.min(copy.size, TOTAL_CAP / Math.max(share, 1 / copy.size));
  const fewest = offered.filter((filter) => filter.lists).sort((a, b) => a.size - b.size)[0];
  if (fewest && fewest.size < walked) {
    const rank = copy.index.ranks[sort];
    // The games that pass are marked at their place in the order, and the places are read from the first:
    // a sequential read that stops at the cap, where sorting 75,000 places took milliseconds. A game in
    // several of the lists (a game of two wanted genres) is counted once: once placed, it is passed over.
    const placed = new Uint8Array(copy.size);
    let passed = 0;
    for (const list of fewest.lists!) {
      for (let k = 0; k < list.length; k += 1) {
        const game = list[k];
        if (placed[rank[game]] === 1 || !passes(game)) continue;
        placed[rank[game]] = 1;
        passed += 1;
      }
    }
    const ids: number[] = [];
    const total = Math.min(passed, TOTAL_CAP);
    const end = Math.min(offset + limit, total);
    for (let place = 0, counted = 0; counted < end; place += 1) {
      if (placed[place] === 0) continue;
      if (counted >= offset) ids.push(copy.ids[order[place]]);
      counted += 1;
    }
    return { ids, total };
  }
  const ids: number[] = [];
  const end = offset + limit;
  let total = 0;
  for (let k = 0; k < order.length && total < TOTAL_CAP; k += 1) {
    const game = order[k];
    if (!passes(game)) continue;
    if (total >= offset && total < end) ids.push(copy.ids[game]);
    total += 1;
  }
  return { ids, total };
}
