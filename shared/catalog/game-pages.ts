// A page of games and its total for a WHERE and an order, read the way that suits how many games match
// (see findPage); the filters are built in game-search.ts and the text conditions in game-text-search.ts.
import type { Knex } from 'knex';
import { ExpiringMap } from '../platform/expiring-map.js';
import { GAME_ROW_COLUMNS, type GameRow } from './rows.js';
import { CATALOG_MAX_PAGE } from './search-parameters.js';

export const GAME_PAGE = { size: 24, maxPage: CATALOG_MAX_PAGE };
/** `total_items` counts matches up to this many. */
export const TOTAL_CAP = 2500;
/** From this offset a browse with no known total reads its page and total in one walk (deepPageWithTotal). */
const DEEP_OFFSET = TOTAL_CAP / 2;

export const GAME_COLUMNS = GAME_ROW_COLUMNS.map((column) => `g.${column}`).join(', ');

/**
 * Conditions joined by AND, with their bindings in order. `alongOrder`, when given, is the same conditions
 * spelled with what the orders' covering indexes carry (a language's bits for its arrays), for the reads
 * that walk an order's index; counting and reading matches first keep `sql`, which the arrays' own indexes
 * and statistics serve.
 */
export type Where = { sql: string[]; bindings: Knex.RawBinding[]; alongOrder?: Where };
/** An ORDER BY list, with its bindings. */
export type Order = { sql: string; bindings: Knex.RawBinding[] };

export interface Found {
  rows: GameRow[];
  total: number;
}

/**
 * Totals of public searches (never of one reader's own-library filters, which change with their writes),
 * for a minute per web process: the catalog changes only when it is imported and when catalog.stats
 * runs, a total that old is as good as the public answers' own `max-age=60`, and every further page of a
 * search is spared its count.
 */
export const searchTotals = new ExpiringMap<number>();

/**
 * How a page is found: by walking the order's index when the matches reach the count's cap (browsing, or
 * a text common enough that a page comes soon), by reading the matches first, or by sorting every match
 * (a ranking by text).
 */
export type Plan = 'walk' | 'matchesFirst' | 'sortsEveryMatch';

/** One page in `order` and the total, for the filters plus the text condition. */
export async function findPage(
  db: Knex | Knex.Transaction,
  where: Where,
  match: Where,
  order: Order,
  window: { limit: number; offset: number },
  cacheTotal: boolean,
  plan: Plan = 'walk',
): Promise<Found> {
  const { clause, bindings } = whereClause(where, match);
  const { limit, offset } = window;
  const key = cacheTotal ? JSON.stringify([clause, bindings]) : null;
  const known = key === null ? undefined : searchTotals.get(key);
  if (plan === 'sortsEveryMatch' && known === undefined) {
    // A ranking by text reads and sorts every match anyway: the total comes with the page, where a count
    // of its own would search the name index a second time (half the time of an 80-character search).
    const { rows } = await db.raw<{ rows: Array<GameRow & { matches: number }> }>(
      `SELECT ${GAME_COLUMNS}, count(*) OVER ()::int AS matches FROM games g ${clause} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
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
  // A text known to be common is the exception: walking finds 2,500 of its matches soon.
  const fenced = match.sql.length > 0 && plan !== 'walk';
  const counted = fenced ? `SELECT * FROM games g ${clause} OFFSET 0` : `SELECT 1 FROM games g ${clause}`;
  // The count comes first and says how to read the page. Under the cap the matches are few: they are
  // read by their own indexes and sorted, behind a fence (OFFSET 0) that keeps the planner from walking the
  // order's index instead (it walked all 300,000 games by trending for a language no game has, 350 ms,
  // and by hype for "%fuyu%", in 71 names). At the cap they are common, and walking finds a page soon.
  // Counting stops at the cap: an exact count of a broad browse would read most of the table, and no
  // client can page past 2,400 results anyway (100 pages of 24).
  // Not with conditions spelled for the walk alone: the planner has no statistics for a language's bits, and
  // would walk every game for a rare one where its count by the arrays' index finds a page of few matches.
  if (known === undefined && match.sql.length === 0 && offset >= DEEP_OFFSET && !where.alongOrder) {
    return deepPageWithTotal(db, clause, bindings, order, window, key);
  }
  let total = known;
  if (total === undefined) {
    const { rows } = await db.raw<{ rows: Array<{ n: number }> }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM (${counted}) g LIMIT ${TOTAL_CAP}) counted`,
      bindings,
    );
    total = rows[0].n;
    if (key !== null) searchTotals.set(key, total);
  }
  if (offset >= total) return { rows: [], total };
  if (total < TOTAL_CAP || plan === 'matchesFirst') {
    const { rows } = await db.raw<{ rows: GameRow[] }>(
      `SELECT ${GAME_COLUMNS} FROM (SELECT * FROM games g ${clause} OFFSET 0) g ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      [...bindings, ...order.bindings, limit, offset],
    );
    return { rows, total };
  }
  // The walk tests the conditions as the order's index carries them.
  const walk = whereClause(where.alongOrder ?? where, match);
  return { rows: await pageByIds(db, walk.clause, walk.bindings, order, limit, offset), total };
}

/** The WHERE of the filters and the text condition together, and its bindings in order. */
function whereClause(where: Where, match: Where): { clause: string; bindings: Knex.RawBinding[] } {
  const all = [...where.sql, ...match.sql];
  return { clause: all.length ? `WHERE ${all.join(' AND ')}` : '', bindings: [...where.bindings, ...match.bindings] };
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
    `SELECT ${GAME_COLUMNS} FROM (
       SELECT g.id, row_number() OVER (ORDER BY ${order.sql}) AS n FROM games g ${clause}
       ORDER BY ${order.sql} LIMIT ? OFFSET ?) page
     JOIN games g ON g.id = page.id ORDER BY page.n`,
    [...order.bindings, ...bindings, ...order.bindings, limit, offset],
  );
  return rows;
}

/**
 * A deep page of a browse whose total is not known, with its total, in one walk: the matches in the order
 * up to the count's cap, numbered, of which the page is a slice and the total their number. A page past
 * half the cap walks nearly as far as the cap for its own rows, so a count of its own (a second search of
 * the same matches, 20 to 60 ms for a facet's 16,000 games) is all but free here; a shallow page stays
 * cheaper with the count first, which may use a facet's index where the order's walk would not.
 */
async function deepPageWithTotal(
  db: Knex | Knex.Transaction,
  clause: string,
  bindings: Knex.RawBinding[],
  order: Order,
  { limit, offset }: { limit: number; offset: number },
  key: string | null,
): Promise<Found> {
  const { rows } = await db.raw<{ rows: Array<GameRow & { total: number }> }>(
    `WITH walked AS MATERIALIZED (
       SELECT g.id, row_number() OVER (ORDER BY ${order.sql}) AS n FROM games g ${clause}
       ORDER BY ${order.sql} LIMIT ${TOTAL_CAP})
     SELECT counted.total, ${GAME_COLUMNS} FROM (SELECT count(*)::int AS total FROM walked) counted
       LEFT JOIN (walked JOIN games g ON g.id = walked.id AND walked.n > ? AND walked.n <= ?) ON true
     ORDER BY walked.n`,
    [...order.bindings, ...bindings, ...order.bindings, offset, offset + limit],
  );
  const total = rows[0].total;
  if (key !== null) searchTotals.set(key, total);
  // Past the last match the page is empty: the one row left carries only the total.
  const page = rows.filter((row) => row.id !== null).map(({ total: _, ...row }) => row as GameRow);
  return { rows: page, total };
}
