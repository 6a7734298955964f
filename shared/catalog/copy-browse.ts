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
import { GAME_COLUMNS, type Found } from './game-pages.js';
import type { GameRow } from './rows.js';
import type { GameSearch } from './search-parameters.js';
import type { CatalogSnapshot } from './copy-indexes.js';
import { readCatalogSnapshotOffThread } from './copy-read.js';
import { answersFilters, answersInMemory, gameFilters, shortTextGames } from './copy-filters.js';
import { searchCopyText } from './copy-text.js';
import { walk, type CopyPage } from './copy-walk.js';
import { inSearch } from './copy-marks.js';

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
    state.reading = readCatalogSnapshotOffThread(knex)
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
  const found = inSearch(() => walk(copy, gameFilters(copy, search, today), search.sort ?? 'popular', window));
  return pageRows(knex, copy, found);
}

/**
 * A page of a text search (`q`, trimmed) from the copy, as game-text-search.ts reads it from the database
 * (copy-text.ts); null when the database must answer (no copy yet, a filter the copy does not hold).
 */
export async function textFromCopy(
  knex: Knex,
  search: GameSearch,
  text: string,
  window: { limit: number; offset: number },
  today: string,
): Promise<Found | null> {
  if (!answersFilters(search)) return null;
  const copy = currentCopy(knex);
  if (!copy) return null;
  const folded = await foldText(knex, text);
  const found = inSearch(() =>
    searchCopyText(copy, gameFilters(copy, search, today, true), folded, search.sort, window, (short) =>
      shortTextGames(copy, short),
    ),
  );
  return pageRows(knex, copy, found);
}

/**
 * A text folded as names are (catalog_fold: unaccent, then lower case). ASCII has no accent and lower-cases
 * alike everywhere; any other text is folded by the database, whose unaccent rules are the word on it.
 */
async function foldText(knex: Knex, text: string): Promise<string> {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  const [row] = (await queryPrepared(knex, 'jogatina_catalog_fold', FOLD, [text])) as unknown as Array<{
    folded: string;
  }>;
  return row.folded;
}

const FOLD = 'SELECT catalog_fold($1) AS folded';

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
async function pageRows(knex: Knex, copy: CatalogSnapshot, { ids, total }: CopyPage): Promise<Found | null> {
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
