// Reading and clearing a person's history (DECISIONS: History; Cursor reads). A view shows while it is one
// of the account's 500 newest, for 90 days, and only while its thing may still be seen: a game the catalog
// still has, a person with no block either way between them and the reader. Recording (recording.ts) only
// upserts, so an account may hold more than 500 rows until the daily retention purge (purgeViews) removes
// those past the 500 and those past 90 days; no read ever shows them.
import type { Knex } from 'knex';
import { cursorPage, MICROSECONDS, type CursorPage } from '../content/cursor-page.js';
import { HISTORY_CAP, HISTORY_DAYS, type HistoryKind } from './history-rules.js';
import { View } from './models.js';
import { presentHistoryItem, type HistoryItem, type HistoryRow } from './presenters.js';

const DAY_MS = 24 * 3600 * 1000;

/** Which rows a kind keeps: the column its thing is named by. */
const KIND_FILTER: Record<HistoryKind | 'all', string> = {
  all: 'true',
  games: 'v.game_id IS NOT NULL',
  profiles: 'v.profile_id IS NOT NULL',
};

/**
 * Newest first over the index view_history_newest; a person's avatar comes in the same statement. `kept`
 * is the oldest of the 500 newest (walked on the same index, at most 500 entries): anything older is past
 * the cap and waits for the purge.
 */
const STATEMENT = (kind: HistoryKind | 'all', range: string, limit: boolean) => `
  WITH kept AS MATERIALIZED (
    SELECT viewed_at, id FROM view_history WHERE account_id = :reader
    ORDER BY viewed_at DESC, id DESC OFFSET ${HISTORY_CAP - 1} LIMIT 1)
  SELECT CASE WHEN v.game_id IS NULL THEN 'profile' ELSE 'game' END AS kind,
    to_char(v.viewed_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS created_at,
    g.id AS game_id, g.slug, g.name, g.cover_image_id, a.username, a.display_name, i.storage_key AS avatar_key
  FROM view_history v
  LEFT JOIN games g ON g.id = v.game_id
  LEFT JOIN accounts a ON a.id = v.profile_id
  LEFT JOIN profiles p ON p.account_id = a.id
  LEFT JOIN images i ON i.id = p.avatar_image_id
  WHERE v.account_id = :reader AND v.viewed_at > CAST(:since AS timestamptz) AND ${KIND_FILTER[kind]} AND ${range}
    AND NOT EXISTS (SELECT 1 FROM kept WHERE (v.viewed_at, v.id) < (kept.viewed_at, kept.id))
    AND (g.id IS NOT NULL OR (a.username IS NOT NULL AND NOT EXISTS (SELECT 1 FROM blocks b
      WHERE (b.blocker_id = :reader AND b.blocked_id = a.id) OR (b.blocker_id = a.id AND b.blocked_id = :reader))))
  ORDER BY v.viewed_at DESC, v.id DESC${limit ? '\n  LIMIT :limit' : ''}`;

export interface HistoryQuery {
  kind?: HistoryKind;
  before?: string;
  limit: number;
}

/** The reader's history, newest first, by cursor; `kind` keeps games or profiles. */
export async function listHistory(
  knex: Knex,
  readerId: string,
  query: HistoryQuery,
  mediaUrl: (key: string) => string,
  now = Date.now(),
): Promise<CursorPage<HistoryItem>> {
  const kind = query.kind ?? 'all';
  const base = { reader: readerId, since: new Date(now - HISTORY_DAYS * DAY_MS).toISOString() };
  const run = async (sql: string, bindings: Record<string, Knex.Value>) =>
    (await knex.raw<{ rows: HistoryRow[] }>(sql, { ...base, ...bindings })).rows;
  const page = await cursorPage<HistoryRow>(
    {
      before: (before, limit) =>
        before === undefined
          ? run(STATEMENT(kind, 'true', true), { limit })
          : run(STATEMENT(kind, 'v.viewed_at < CAST(:before AS timestamptz)', true), { before, limit }),
      at: (instant) => run(STATEMENT(kind, 'v.viewed_at = CAST(:at AS timestamptz)', false), { at: instant }),
    },
    query.before,
    query.limit,
  );
  return { ...page, rows: page.rows.map((row) => presentHistoryItem(row, mediaUrl)) };
}

/** Removes the reader's recorded views (of one kind when given), shown or not; answers how many. */
export async function clearHistory(knex: Knex, readerId: string, kind?: HistoryKind): Promise<number> {
  const rows = View.query(knex).alias('v').where('v.account_id', readerId);
  if (kind) rows.whereRaw(KIND_FILTER[kind]);
  return rows.delete();
}

/** Every account's rows past its 500 newest: only accounts over the cap are walked, each on its index. */
const BEYOND_CAP = `
  DELETE FROM view_history v USING (
    SELECT beyond.id FROM (
      SELECT account_id FROM view_history GROUP BY account_id HAVING count(*) > :cap) crowded
    CROSS JOIN LATERAL (
      SELECT id FROM view_history WHERE account_id = crowded.account_id
      ORDER BY viewed_at DESC, id DESC OFFSET :cap) beyond
  ) gone
  WHERE v.id = gone.id`;

/**
 * The retention purge's part: views past 90 days and views past an account's 500 newest, which no read
 * shows any more. Answers how many went.
 */
export async function purgeViews(knex: Knex, now = Date.now()): Promise<number> {
  const expired = await View.query(knex)
    .where('viewed_at', '<', new Date(now - HISTORY_DAYS * DAY_MS))
    .delete();
  const beyond = await knex.raw<{ rowCount: number }>(BEYOND_CAP, { cap: HISTORY_CAP });
  return expired + beyond.rowCount;
}
