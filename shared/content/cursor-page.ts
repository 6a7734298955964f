// A cursor read (DECISIONS: Cursor reads): newest first by `created_at`, walked by `before`, the last item's
// created_at to the microsecond, answered `{ data, has_more, next_before }`. A cursor of a time alone cannot
// tell apart rows that share one instant, so a page never ends inside such a group: it ends before the
// group (the next page starts with it), or, when the group alone fills the page, holds it whole. The
// journal's sessions page the same way (shared/journal/session-reads.ts).

/** Postgres text of a timestamp to the microsecond, in UTC, as cursors carry it. */
export const MICROSECONDS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

export interface CursorPage<T> {
  rows: T[];
  has_more: boolean;
  next_before: string | null;
}

/** Where a cursor read takes its rows, newest first; `created_at` is text to the microsecond. */
export interface CursorSource<T extends { created_at: string }> {
  /** Up to `limit` rows older than `before` (all rows when undefined). */
  before(before: string | undefined, limit: number): Promise<T[]>;
  /** Every row of exactly this instant. */
  at(instant: string): Promise<T[]>;
}

export async function cursorPage<T extends { created_at: string }>(
  source: CursorSource<T>,
  before: string | undefined,
  limit: number,
): Promise<CursorPage<T>> {
  // One more than asked tells whether another page follows, and whether the page would split a group.
  const rows = await source.before(before, limit + 1);
  if (rows.length <= limit) return { rows, has_more: false, next_before: null };
  const last = rows[limit - 1].created_at;
  if (rows[limit].created_at !== last) return { rows: rows.slice(0, limit), has_more: true, next_before: last };
  const kept = rows.slice(0, limit).filter((row) => row.created_at !== last);
  if (kept.length > 0) return { rows: kept, has_more: true, next_before: kept.at(-1)!.created_at };
  // The whole page is one instant: it holds every row of that instant, then goes on before it.
  const [group, older] = await Promise.all([source.at(last), source.before(last, 1)]);
  return { rows: group, has_more: older.length > 0, next_before: older.length > 0 ? last : null };
}
