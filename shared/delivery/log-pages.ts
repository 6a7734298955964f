// What the two delivery logs (data events, events for integrations) read alike: each event's last attempts
// from its attempts table, and a page of events newest first by (created_at, id) with a signed cursor.
import type { Knex } from 'knex';
import { encodeCursor } from '../platform/paging/cursor.js';

/** Attempts shown per event, newest first. */
export const ATTEMPTS_SHOWN = 20;

export interface LogAttempt {
  attempted_at: string;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
  outcome: 'delivered' | 'retrying' | 'failed';
}

/** The last ATTEMPTS_SHOWN attempts of each of the events `ids` (every id present), in one statement. */
export async function lastAttempts(
  knex: Knex,
  attemptsTable: string,
  ids: string[],
): Promise<Map<string, LogAttempt[]>> {
  const attempts = new Map<string, LogAttempt[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return attempts;
  const { rows } = await knex.raw<{
    rows: Array<Omit<LogAttempt, 'attempted_at'> & { event_id: string; attempted_at: Date }>;
  }>(
    `SELECT event_id, attempted_at, http_status, duration_ms, error, outcome FROM (
       SELECT a.*, row_number() OVER (PARTITION BY event_id ORDER BY attempted_at DESC, id DESC) AS n
         FROM ${attemptsTable} a WHERE event_id = ANY(CAST(:ids AS uuid[]))
     ) ranked WHERE n <= :shown ORDER BY attempted_at DESC, id DESC`,
    { ids: ids as unknown as Knex.Value, shown: ATTEMPTS_SHOWN },
  );
  for (const { event_id, attempted_at, ...attempt } of rows) {
    attempts.get(event_id)!.push({ attempted_at: new Date(attempted_at).toISOString(), ...attempt });
  }
  return attempts;
}

/**
 * A page of `select` (which reads `id` and `created_at::text AS created_key`) newest first, after the
 * cursor's `position`; `next` is the cursor of the row after the page, under `sort`.
 */
export async function newestFirst<Row extends { id: string; created_key: string }>(
  select: Knex.QueryBuilder,
  position: unknown[] | null,
  limit: number,
  cursor: { secret: string; sort: string },
): Promise<{ rows: Row[]; next: string | null }> {
  select
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit + 1);
  if (position) {
    select.whereRaw('(created_at, id) < (CAST(? AS timestamptz), CAST(? AS uuid))', [
      position[0] as string,
      position[1] as string,
    ]);
  }
  const rows = (await select) as Row[];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    next: rows.length > limit && last ? encodeCursor(cursor.secret, cursor.sort, [last.created_key, last.id]) : null,
  };
}
