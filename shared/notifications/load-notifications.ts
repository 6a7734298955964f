// The reads of a person's notifications (DECISIONS: Notifications; Cursor reads): newest first by cursor for
// GET /notifications, the unread count, and by `seq` for the live stream (stream-hub.ts). Rows from an actor
// blocked either way are never shown: the block's command removes the unread ones and notify() writes none
// across a block, but a read one written before the block stays, and a read must not show it. Rows past the
// 90-day retention are not shown either, so a read agrees with what the daily purge keeps whenever it runs.
import type { Knex } from 'knex';
import { fn } from 'objection';
import { cursorPage, MICROSECONDS, type CursorPage } from '../content/cursor-page.js';
import { NotificationListener } from './models.js';
import { NOTIFICATION_RETENTION_DAYS, type NotificationKind } from './rows.js';

/** One notification as read, with its actor's names and avatar key in the same row. */
export interface NotificationRow {
  id: string;
  kind: NotificationKind;
  actor_id: string | null;
  username: string | null;
  display_name: string | null;
  avatar_key: string | null;
  subject_kind: string | null;
  subject_id: string | null;
  data: Record<string, unknown>;
  /** To the microsecond, UTC: the cursor. */
  created_at: string;
  read_at: string | null;
}

/** A row of the stream: `seq` orders it; `hidden` (a block either way) is passed over, never sent. */
export interface StreamRow extends NotificationRow {
  seq: number;
  hidden: boolean;
}

/** GET /notifications: `limit` 1 to 100, 20 when omitted (DECISIONS: Cursor reads). */
export const NOTIFICATIONS_PAGE = { min: 1, max: 100, default: 20 };

const KEPT = `n.created_at > now() - interval '${NOTIFICATION_RETENTION_DAYS} days'`;

const BLOCKED = `n.actor_id IS NOT NULL AND EXISTS (SELECT 1 FROM blocks b
    WHERE (b.blocker_id = n.account_id AND b.blocked_id = n.actor_id)
       OR (b.blocker_id = n.actor_id AND b.blocked_id = n.account_id))`;

/** What a reader is shown of the notifications `n`: kept, and from no actor blocked either way. */
export const SHOWN = `${KEPT} AND NOT (${BLOCKED})`;

const COLUMNS = `n.id, n.kind, n.actor_id, a.username, a.display_name, i.storage_key AS avatar_key,
    n.subject_kind, n.subject_id, n.data,
    to_char(n.created_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS created_at,
    to_char(n.read_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS read_at`;

const ACTOR = `LEFT JOIN accounts a ON a.id = n.actor_id
  LEFT JOIN profiles p ON p.account_id = a.id
  LEFT JOIN images i ON i.id = p.avatar_image_id`;

const NEWEST = (range: string, limit: boolean) => `
  SELECT ${COLUMNS}
  FROM notifications n
  ${ACTOR}
  WHERE n.account_id = :reader AND (NOT :unread OR n.read_at IS NULL) AND ${SHOWN} AND ${range}
  ORDER BY n.created_at DESC, n.id DESC${limit ? '\n  LIMIT :limit' : ''}`;

export interface NotificationsQuery {
  /** 1: only the unread ones. */
  unread?: number;
  before?: string;
  limit: number;
}

/** The reader's notifications, newest first, by cursor; `unread: 1` keeps the unread ones. */
export async function listNotifications(
  knex: Knex,
  readerId: string,
  query: NotificationsQuery,
): Promise<CursorPage<NotificationRow>> {
  const base = { reader: readerId, unread: query.unread === 1 };
  const run = async (sql: string, bindings: Record<string, Knex.Value>) =>
    (await knex.raw<{ rows: NotificationRow[] }>(sql, { ...base, ...bindings })).rows;
  return cursorPage<NotificationRow>(
    {
      before: (before, limit) =>
        before === undefined
          ? run(NEWEST('true', true), { limit })
          : run(NEWEST('n.created_at < CAST(:before AS timestamptz)', true), { before, limit }),
      at: (instant) => run(NEWEST('n.created_at = CAST(:at AS timestamptz)', false), { at: instant }),
    },
    query.before,
    query.limit,
  );
}

const UNREAD = `SELECT count(*)::int AS unread FROM notifications n
  WHERE n.account_id = :reader AND n.read_at IS NULL AND ${SHOWN}`;

/** How many of the reader's notifications are unread (what GET /notifications?unread=1 walks through). */
export async function unreadCount(knex: Knex, readerId: string): Promise<number> {
  const { rows } = await knex.raw<{ rows: Array<{ unread: number }> }>(UNREAD, { reader: readerId });
  return rows[0].unread;
}

/**
 * Where a new stream starts: the unread count for its `ready` event, and the highest `seq` among the
 * reader's committed notifications. Committed, not the counter: a writer holding seq N+1 uncommitted keeps
 * the counter's row locked, so no seq above it can commit first, and N+1 is delivered when it commits.
 */
export async function streamStart(knex: Knex, readerId: string): Promise<{ unread: number; seq: number }> {
  const { rows } = await knex.raw<{ rows: Array<{ unread: number; seq: string }> }>(
    `SELECT (${UNREAD}) AS unread,
       (SELECT coalesce(max(seq), 0) FROM notifications WHERE account_id = :reader) AS seq`,
    { reader: readerId },
  );
  return { unread: rows[0].unread, seq: Number(rows[0].seq) };
}

/** The reader's notifications with `seq` above `after`, in seq order, at most `limit` (one page). */
export async function notificationsAfter(
  knex: Knex,
  readerId: string,
  after: number,
  limit: number,
): Promise<StreamRow[]> {
  const { rows } = await knex.raw<{ rows: Array<StreamRow & { seq: string }> }>(
    `SELECT ${COLUMNS}, n.seq, (${BLOCKED}) AS hidden
     FROM notifications n
     ${ACTOR}
     WHERE n.account_id = :reader AND n.seq > :after AND ${KEPT}
     ORDER BY n.seq
     LIMIT :limit`,
    { reader: readerId, after, limit },
  );
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

/**
 * Of these readers, each with the seq its streams have reached, those with a notification past it: the
 * streams' slow re-read, one statement for every account a process streams to.
 */
export async function readersWithNews(
  knex: Knex,
  reached: Array<{ accountId: string; seq: number }>,
): Promise<string[]> {
  if (reached.length === 0) return [];
  const { rows } = await knex.raw<{ rows: Array<{ account_id: string }> }>(
    `SELECT r.account_id FROM unnest(CAST(:ids AS uuid[]), CAST(:seqs AS bigint[])) AS r(account_id, seq)
     WHERE EXISTS (SELECT 1 FROM notifications n WHERE n.account_id = r.account_id AND n.seq > r.seq)`,
    // Array literals: knex would spread a JS array into a list of parameters. Uuids and integers need no quoting.
    { ids: `{${reached.map((r) => r.accountId).join(',')}}`, seqs: `{${reached.map((r) => r.seq).join(',')}}` },
  );
  return rows.map((row) => row.account_id);
}

/**
 * This process listens for `accountId` (migration notification_listeners): notifications to them NOTIFY
 * once this has committed. A writer whose trigger looked before then sends nothing and may commit after the
 * stream's first read; the hub reads once more a moment later for it.
 */
export async function listenFor(knex: Knex, accountId: string, listener: string): Promise<void> {
  await NotificationListener.query(knex)
    .insert({ account_id: accountId, listener })
    .onConflict(['account_id', 'listener'])
    .merge({ seen_at: fn.now() });
}

/** This process no longer streams to `accountId`. */
export async function stopListeningFor(knex: Knex, accountId: string, listener: string): Promise<void> {
  await NotificationListener.query(knex).deleteById([accountId, listener]);
}

/** This process still streams to the accounts it listed: their rows stay fresh (a minute without is dead). */
export async function stillListening(knex: Knex, listener: string): Promise<void> {
  await NotificationListener.query(knex).where({ listener }).patch({ seen_at: fn.now() });
}

/** One of the reader's notifications as GET /notifications shows it, or null when it is not shown (or gone). */
export async function shownNotification(knex: Knex, readerId: string, id: string): Promise<NotificationRow | null> {
  const { rows } = await knex.raw<{ rows: NotificationRow[] }>(
    `SELECT ${COLUMNS} FROM notifications n ${ACTOR} WHERE n.account_id = :reader AND n.id = :id AND ${SHOWN}`,
    { reader: readerId, id },
  );
  return rows[0] ?? null;
}
