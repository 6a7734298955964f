// The owner's own copies (spec: GET /library/copies), paged by cursor (Pagination rule 4). Each sort is a
// keyset order that ends on the row id, so a page continues exactly after the last row of the one before:
// rows added or removed meanwhile neither repeat nor push others out, as offsets would.
import type { Knex } from 'knex';
import { decodeCursor, encodeCursor } from '../platform/paging/cursor.js';

export const COPY_SORTS = ['newest', 'oldest', 'game'] as const;
export type CopySort = (typeof COPY_SORTS)[number];
export const COPY_LIMIT = { min: 1, max: 100, default: 50 };

export interface CopyQuery {
  limit: number;
  sort: CopySort;
  cursor?: string;
}

interface CopyRow {
  id: string;
  game_id: number;
  platform_id: number | null;
  format: 'digital' | 'physical';
  note: string;
  /** To the microsecond, as stored: a position in milliseconds would skip rows of the same millisecond. */
  at: string;
}

/** The order of each sort and how a position continues it (row-value comparison on the same columns). */
const ORDERS: Record<CopySort, { columns: string[]; direction: 'asc' | 'desc'; after: string }> = {
  newest: {
    columns: ['c.created_at', 'c.id'],
    direction: 'desc',
    after: '(c.created_at, c.id) < (?::timestamptz, ?::uuid)',
  },
  oldest: {
    columns: ['c.created_at', 'c.id'],
    direction: 'asc',
    after: '(c.created_at, c.id) > (?::timestamptz, ?::uuid)',
  },
  game: { columns: ['c.game_id', 'c.id'], direction: 'asc', after: '(c.game_id, c.id) > (?::integer, ?::uuid)' },
};

function positionOf(sort: CopySort, row: CopyRow): [string | number, string] {
  return sort === 'game' ? [row.game_id, row.id] : [row.at, row.id];
}

export async function listCopies(knex: Knex, secret: string, ownerId: string, options: CopyQuery) {
  const order = ORDERS[options.sort];
  const query = knex('library_copies as c').where('c.account_id', ownerId);
  // A cursor of another sort starts the listing over (docs/api-notes.md: Cursors); a forged one is refused inside.
  const position = options.cursor ? decodeCursor(secret, options.cursor, options.sort) : null;
  if (position) query.whereRaw(order.after, position as Knex.Value[]);
  // One more than asked tells whether another page follows.
  const rows: CopyRow[] = await query
    .select(
      'c.id',
      'c.game_id',
      'c.platform_id',
      'c.format',
      'c.note',
      knex.raw(`to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at`),
    )
    .orderBy(order.columns.map((column) => ({ column, order: order.direction })))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const hasMore = rows.length > options.limit;
  return {
    data: page.map((row) => ({
      id: row.id,
      game_id: row.game_id,
      platform_id: row.platform_id,
      format: row.format,
      note: row.note,
      created_at: new Date(row.at).toISOString(),
    })),
    page: { size: options.limit, has_more: hasMore },
    next_cursor: hasMore ? encodeCursor(secret, options.sort, positionOf(options.sort, page.at(-1)!)) : null,
  };
}
