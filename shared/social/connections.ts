// The owner's connection lists (spec: GET /social/followers|following|blocks|follow-requests): the other
// accounts with their name, display name and avatar, newest connection first, one page of 50, `q`
// matching the username or display name without case or accents. Presenting reads no more rows: the
// avatar comes in the same query.
import type { Knex } from 'knex';
import { presentPersonSummary } from '../people/presenters.js';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { likeContaining } from '../platform/db/like.js';

export const CONNECTION_PAGE = { size: 50 };

export type ConnectionKind = 'followers' | 'following' | 'blocks' | 'follow-requests';

/** Which table each list reads, the owner's column in it, and the other account's. */
const SOURCES: Record<ConnectionKind, { table: string; owner: string; other: string }> = {
  followers: { table: 'follows', owner: 'followee_id', other: 'follower_id' },
  following: { table: 'follows', owner: 'follower_id', other: 'followee_id' },
  blocks: { table: 'blocks', owner: 'blocker_id', other: 'blocked_id' },
  'follow-requests': { table: 'follow_requests', owner: 'target_id', other: 'requester_id' },
};

interface ConnectionRow {
  username: string | null;
  display_name: string | null;
  avatar_key: string | null;
  since: Date;
}

/** Narrows to accounts `a` whose username or display name contains `q`, without case or accents. */
function matchingPeople(query: Knex.QueryBuilder, q: string | undefined): void {
  const text = q?.trim();
  if (!text) return;
  const like = likeContaining(text);
  query.where((match) =>
    match
      .whereRaw('catalog_fold(a.username) LIKE catalog_fold(?)', [like])
      .orWhereRaw("catalog_fold(coalesce(a.display_name, '')) LIKE catalog_fold(?)", [like]),
  );
}

export async function listConnections(
  knex: Knex,
  ownerId: string,
  kind: ConnectionKind,
  options: { page: number; q?: string },
  mediaUrl: (key: string) => string,
) {
  const { table, owner, other } = SOURCES[kind];
  const query = knex(`${table} as c`).join('accounts as a', 'a.id', `c.${other}`).where(`c.${owner}`, ownerId);
  matchingPeople(query, options.q);
  const { limit, offset } = pageWindow(options.page, CONNECTION_PAGE);
  const [rows, counted] = await Promise.all([
    query
      .clone()
      .leftJoin('profiles as p', 'p.account_id', 'a.id')
      .leftJoin('images as i', 'i.id', 'p.avatar_image_id')
      .select('a.username', 'a.display_name', 'i.storage_key as avatar_key', 'c.created_at as since')
      .orderBy([
        { column: 'c.created_at', order: 'desc' },
        { column: 'a.id', order: 'asc' },
      ])
      .limit(limit)
      .offset(offset) as Promise<ConnectionRow[]>,
    query.clone().count<{ n: number }[]>('* as n'),
  ]);
  return {
    data: rows.map((row) => ({ ...presentPersonSummary(row, mediaUrl), since: new Date(row.since).toISOString() })),
    page: pageObject(options.page, CONNECTION_PAGE, Number(counted[0].n)),
  };
}

export interface ProfileConnectionsQuery {
  tab: 'followers' | 'following';
  /** created_at of the last item seen (spec: a timestamp cursor). */
  before?: string;
  limit: number;
  q?: string;
}

/**
 * A person's followers or following as a reader sees them (spec: GET /profiles/{username}/connections):
 * newest first, `before` the last item's `since`, and nobody who blocks the reader or whom they block.
 */
export async function profileConnections(
  knex: Knex,
  ownerId: string,
  readerId: string | null,
  options: ProfileConnectionsQuery,
  mediaUrl: (key: string) => string,
) {
  const { table, owner, other } = SOURCES[options.tab];
  const query = knex(`${table} as c`)
    .join('accounts as a', 'a.id', `c.${other}`)
    .leftJoin('profiles as p', 'p.account_id', 'a.id')
    .leftJoin('images as i', 'i.id', 'p.avatar_image_id')
    .where(`c.${owner}`, ownerId);
  if (readerId) {
    query.whereNotExists(
      knex('blocks as b').whereRaw(
        '(b.blocker_id = ? AND b.blocked_id = a.id) OR (b.blocker_id = a.id AND b.blocked_id = ?)',
        [readerId, readerId],
      ),
    );
  }
  if (options.before) query.where('c.created_at', '<', options.before);
  matchingPeople(query, options.q);
  // One more than asked tells whether another page follows.
  // `since` to the microsecond, as stored: a cursor in milliseconds would skip rows of the same millisecond.
  const rows: Array<Omit<ConnectionRow, 'since'> & { since: string }> = await query
    .select(
      'a.username',
      'a.display_name',
      'i.storage_key as avatar_key',
      knex.raw(`to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS since`),
    )
    .orderBy([
      { column: 'c.created_at', order: 'desc' },
      { column: 'a.id', order: 'asc' },
    ])
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const data = page.map((row) => ({ ...presentPersonSummary(row, mediaUrl), since: row.since }));
  const hasMore = rows.length > options.limit;
  return { data, page: { size: options.limit, has_more: hasMore }, next_before: hasMore ? data.at(-1)!.since : null };
}
