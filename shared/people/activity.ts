// The activity feed (spec: GET /activity, /profiles/{username}/reviews, /games/{slug}/activity): activity
// items joined to what they are about, each shown only when its reader may see it. Visibility is decided
// per author in SQL (the reader follows some authors and not others): an item's own visibility, the
// author's library visibility for library entries, blocks either way and suspension hide the rest.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { queryPrepared } from '../db/prepared.js';
import { invalidRequest } from '../errors.js';
import { NOT_SUSPENDED } from './visibility.js';

export const ACTIVITY_KINDS = ['entry', 'session', 'review', 'list', 'screenshot', 'journey'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface ActivityFilters {
  authorIds?: string[];
  gameId?: number;
  kinds?: ActivityKind[];
  q?: string;
  rating?: number;
  spoilers?: 'all' | 'safe' | 'spoilers';
  order?: 'new' | 'old';
  before?: string;
  limit: number;
  offset?: number;
}

/** SQL: the reader may see an item of `visibility` by the author `author` (reader bound as :reader). */
const SIGNED_IN_SEEN = (visibility: string, author: string) => `(${author} = :reader OR ${visibility} = 'PUBLIC'
  OR (${visibility} = 'FOLLOWERS' AND EXISTS (SELECT 1 FROM follows fo WHERE fo.follower_id = :reader AND fo.followee_id = ${author})))`;

/**
 * SQL: the item `x` is one the reader may see and that passes the filters on its subject. Every test is a
 * lookup of the subject by primary key, with no join in the outer query, so PostgreSQL walks the feed in
 * its index order and stops at the page's end instead of joining every item first.
 */
/**
 * An anonymous reader sees PUBLIC items only: no follows to look up, nobody of their own. The author test
 * is always true; it is there because it names the outer row, which keeps PostgreSQL from turning the
 * lookup of each item's subject into a hash of the whole subject table (166,000 sessions for 21 items).
 */
const PUBLIC_SEEN = (visibility: string, author: string) => `(${visibility} = 'PUBLIC' AND ${author} IS NOT NULL)`;

function seenAndMatching(filters: ActivityFilters, anonymous: boolean): string {
  // The text differs for anonymous readers, so their prepared plan has no per-row follow lookups.
  const ITEM_SEEN = anonymous ? PUBLIC_SEEN : SIGNED_IN_SEEN;
  const text = filters.q?.trim() ? true : false;
  const gameNamed = `catalog_fold(coalesce((SELECT gm.name FROM games gm WHERE gm.id = x.game_id), '')) LIKE catalog_fold(:like)`;
  const textOf = (column: string | null) =>
    !text ? '' : ` AND (${gameNamed}${column ? ` OR catalog_fold(${column}) LIKE catalog_fold(:like)` : ''})`;
  const rated = (column: string) => (filters.rating === undefined ? '' : ` AND ${column} >= :rating`);
  const spoiler = (column: string | null) => {
    if (filters.spoilers === 'safe') return column ? ` AND NOT ${column}` : '';
    if (filters.spoilers === 'spoilers') return column ? ` AND ${column}` : ' AND false';
    return '';
  };
  const noRating = filters.rating === undefined ? '' : ' AND false';
  const subject = (kind: string, table: string, alias: string, extra: string) =>
    `(x.kind = '${kind}' AND EXISTS (SELECT 1 FROM ${table} ${alias} WHERE ${alias}.id = x.subject_id${extra}))`;
  return `(
    ${subject('review', 'reviews', 'r', ` AND ${ITEM_SEEN('r.visibility', 'x.account_id')}${rated('r.rating')}${spoiler('r.contains_spoilers')}${textOf('r.body')}`)}
    OR ${subject('session', 'play_sessions', 'p', ` AND ${ITEM_SEEN('p.visibility', 'x.account_id')}${noRating}${spoiler(null)}${textOf(null)}`)}
    OR ${subject('list', 'lists', 'l', ` AND ${ITEM_SEEN('l.visibility', 'x.account_id')}${noRating}${spoiler(null)}${textOf('l.title')}`)}
    OR ${subject('journey', 'journeys', 'j', ` AND ${ITEM_SEEN('j.visibility', 'x.account_id')}${noRating}${spoiler(null)}${textOf('j.title')}`)}
    OR ${subject('screenshot', 'screenshots', 's', ` AND s.removed_at IS NULL AND ${ITEM_SEEN('s.visibility', 'x.account_id')}${noRating}${spoiler('s.contains_spoilers')}${textOf('s.description')}`)}
    OR ${subject('entry', 'library_entries', 'e', `${rated('e.rating')}${spoiler(null)}${textOf(null)}`)}
       AND ${ITEM_SEEN(`coalesce((SELECT pv.library_visibility FROM profiles pv WHERE pv.account_id = x.account_id), 'PUBLIC')`, 'x.account_id')}
  )`;
}

const JOINS = `
  JOIN accounts a ON a.id = x.account_id
  LEFT JOIN profiles pr ON pr.account_id = x.account_id
  LEFT JOIN reviews r ON x.kind = 'review' AND r.id = x.subject_id
  LEFT JOIN play_sessions p ON x.kind = 'session' AND p.id = x.subject_id
  LEFT JOIN lists l ON x.kind = 'list' AND l.id = x.subject_id
  LEFT JOIN journeys j ON x.kind = 'journey' AND j.id = x.subject_id
  LEFT JOIN screenshots s ON x.kind = 'screenshot' AND s.id = x.subject_id
  LEFT JOIN library_entries e ON x.kind = 'entry' AND e.id = x.subject_id
  LEFT JOIN games g ON g.id = x.game_id`;

interface ItemRow {
  id: string;
  kind: ActivityKind;
  username: string;
  game_id: number | null;
  created_at: Date;
  body: string | null;
  rating: number | null;
  spoilers: boolean | null;
  minutes: number | null;
  ended_at: Date | null;
  title: string | null;
  list_id: string | null;
  status: string | null;
  shot_id: string | null;
  image_key: string | null;
  thumbnail_key: string | null;
  thumbnail_width: number | null;
  thumbnail_height: number | null;
}

function where(filters: ActivityFilters, readerId: string | null) {
  const anonymous = readerId === null;
  const clauses = [seenAndMatching(filters, anonymous)];
  const bindings: Record<string, Knex.Value> = anonymous ? {} : { reader: readerId };
  // Shared feeds (everyone, a game) leave suspended authors out, as search does, but for the author; a
  // feed of named people shows their items as their other pages do, so a page and its count agree.
  if (!filters.authorIds) {
    clauses.push(
      anonymous ? NOT_SUSPENDED('x.account_id') : `(x.account_id = :reader OR ${NOT_SUSPENDED('x.account_id')})`,
    );
  }
  // Blocks are between accounts: an anonymous reader has none.
  if (!anonymous) {
    clauses.push(`NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = x.account_id)
    OR (b.blocker_id = x.account_id AND b.blocked_id = :reader))`);
  }
  if (filters.authorIds?.length === 1) {
    clauses.push('x.account_id = :author');
    bindings.author = filters.authorIds[0];
  } else if (filters.authorIds) {
    clauses.push('x.account_id = ANY(CAST(:authors AS uuid[]))');
    bindings.authors = filters.authorIds as unknown as Knex.Value;
  }
  if (filters.gameId !== undefined) {
    clauses.push('x.game_id = :game');
    bindings.game = filters.gameId;
  }
  if (filters.kinds?.length === 1 && !filters.authorIds) {
    // An equality, not ANY: only then can the walk use the (kind, created_at, id) index in order. Not with
    // authors: their own index is the short walk, and the generic plan could not tell (the text decides).
    clauses.push('x.kind = :kind');
    bindings.kind = filters.kinds[0];
  } else if (filters.kinds?.length) {
    clauses.push('x.kind = ANY(CAST(:kinds AS text[]))');
    bindings.kinds = filters.kinds as unknown as Knex.Value;
  }
  if (filters.rating !== undefined) bindings.rating = filters.rating;
  const text = filters.q?.trim();
  if (text) bindings.like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (filters.before) {
    clauses.push(filters.order === 'old' ? 'x.created_at > :before' : 'x.created_at < :before');
    bindings.before = filters.before;
  }
  return { sql: clauses.join(' AND '), bindings };
}

export async function readActivity(
  knex: Knex,
  readerId: string | null,
  filters: ActivityFilters,
  mediaUrl: (key: string) => string,
) {
  if (filters.offset !== undefined && filters.kinds?.length !== 1) {
    throw invalidRequest('offset pages one kind only: send exactly one in kinds.', {
      field: 'offset',
      reason: 'not_allowed',
    });
  }
  const { sql, bindings } = where(filters, readerId);
  const direction = filters.order === 'old' ? 'ASC' : 'DESC';
  // The limit is part of the text (a validated integer): a prepared statement's generic plan then knows the
  // page is small and looks its details up by key, where a bound limit made it hash-join whole tables.
  const limit = Math.trunc(filters.limit) + 1;
  // First the page's items, in the feed's index order (materialized, so nothing is joined before the
  // page is picked, and carrying the columns the rest needs); then what they are about, for those rows
  // only. One statement, run prepared: its planning cost more than its execution.
  const native = knex
    .raw(
      `WITH picked AS MATERIALIZED (
         SELECT x.id, x.kind, x.account_id, x.subject_id, x.game_id, x.created_at FROM activity_items x WHERE ${sql}
         ORDER BY x.created_at ${direction}, x.id ${direction} LIMIT ${limit} OFFSET :offset)
       SELECT x.id, x.kind, a.username, x.game_id,
         to_char(x.created_at AT TIME ZONE 'UTC', :timestamp) AS created_at,
         r.body, coalesce(r.rating, e.rating) AS rating, coalesce(r.contains_spoilers, s.contains_spoilers) AS spoilers,
         p.minutes, p.ended_at, coalesce(l.title, j.title) AS title, l.public_id AS list_id, e.status,
         s.public_id AS shot_id, s.image_key, s.thumbnail_key, s.thumbnail_width, s.thumbnail_height
       FROM picked x ${JOINS}
       ORDER BY x.created_at ${direction}, x.id ${direction}`,
      // The format is a value, not text of the query: its colons would read as named bindings.
      {
        ...bindings,
        offset: filters.offset ?? 0,
        timestamp: 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"',
      },
    )
    .toSQL()
    .toNative();
  const name = `jogatina_activity_${createHash('sha1').update(native.sql).digest('hex').slice(0, 16)}`;
  const rows = (await queryPrepared(knex, name, native.sql, [...native.bindings])) as unknown as ItemRow[];
  const page = rows.slice(0, filters.limit);
  return {
    data: page.map((row) => presentItem(row, mediaUrl)),
    has_more: rows.length > filters.limit,
    next_before: rows.length > filters.limit ? String(page.at(-1)!.created_at) : null,
  };
}

function presentItem(row: ItemRow, mediaUrl: (key: string) => string) {
  const base = { id: row.id, kind: row.kind, username: row.username, game_id: row.game_id, created_at: row.created_at };
  switch (row.kind) {
    case 'review':
      return { ...base, body: row.body, rating: row.rating, contains_spoilers: row.spoilers };
    case 'session':
      return { ...base, minutes: row.minutes, live: row.ended_at === null };
    case 'entry':
      return { ...base, status: row.status, rating: row.rating };
    case 'list':
      return { ...base, list_id: row.list_id, title: row.title };
    case 'journey':
      return { ...base, title: row.title };
    case 'screenshot':
      return {
        ...base,
        screenshot_id: row.shot_id,
        contains_spoilers: row.spoilers,
        imageUrl: row.image_key ? mediaUrl(row.image_key) : null,
        thumbnailUrl: row.thumbnail_key ? mediaUrl(row.thumbnail_key) : null,
        thumbnailWidth: row.thumbnail_key ? row.thumbnail_width : null,
        thumbnailHeight: row.thumbnail_key ? row.thumbnail_height : null,
      };
  }
}

/**
 * Session totals of a game as the reader may see them (spec: GET /games/{slug}/activity): closed sessions
 * and their minutes, and distinct calendar days (UTC) with a session; a live session counts in none.
 */
export async function gameSessionTotals(knex: Knex, gameId: number, readerId: string | null) {
  const { rows } = await knex.raw<{ rows: Array<{ sessions: number; minutes: number; days: number }> }>(
    `SELECT count(*)::int AS sessions, coalesce(sum(p.minutes), 0)::int AS minutes,
       count(DISTINCT (p.started_at AT TIME ZONE 'UTC')::date)::int AS days
     FROM play_sessions p
     WHERE p.game_id = :game AND p.ended_at IS NOT NULL AND ${SIGNED_IN_SEEN('p.visibility', 'p.account_id')}
       AND (p.account_id = :reader OR ${NOT_SUSPENDED('p.account_id')})
       AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = p.account_id)
         OR (b.blocker_id = p.account_id AND b.blocked_id = :reader))`,
    { game: gameId, reader: readerId ?? '00000000-0000-0000-0000-000000000000' },
  );
  return rows[0];
}
