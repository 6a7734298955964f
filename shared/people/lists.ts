// A person's lists and list folders as a reader sees them (spec: GET /profiles/{username}/lists and
// /lists/folders). Which lists show is the per-item rule (item-visibility.ts) and nothing else, as in the
// profile summary's `lists` count, so the count there and the total here agree. Filters combine with AND;
// `total_items` comes from its own count under every filter, so `has_more` holds past the last row.
import type { Knex } from 'knex';
import { visibleItems, type ItemVisibility, type ReaderRelation } from './item-visibility.js';
import { commentCountSql } from '../content/comment-count.js';
import { likeContaining } from '../platform/db/like.js';
import { offsetPage } from '../platform/paging/paging.js';

export const LIST_MODES = ['list', 'ranked', 'tier'] as const;
export const LIST_SORTS = ['recent', 'oldest', 'name', 'likes', 'size'] as const;
export const LIST_PAGE = { defaultLimit: 24, maxLimit: 48, maxOffset: 10000, maxQuery: 80 };
/** The `folder` value that asks for lists in no folder (leaving `folder` out means every list). */
export const NO_FOLDER = 'NONE';

export interface ListsQuery {
  visibility?: ItemVisibility;
  mode?: (typeof LIST_MODES)[number];
  sort: (typeof LIST_SORTS)[number];
  limit: number;
  offset: number;
  before?: string;
  q?: string;
  folder?: string;
}

interface ListRow {
  public_id: string;
  title: string;
  description: string;
  visibility: ItemVisibility;
  mode: string;
  likes: number;
  comments: number;
  awards: Record<string, number>;
  preview_count: number;
  folder: string | null;
  created_at: Date;
  updated_at: Date;
}

// Every order ends on the row id so pages never repeat or skip a list when the leading columns tie.
const ORDER: Record<ListsQuery['sort'], string> = {
  recent: 'l.updated_at DESC, l.id DESC',
  oldest: 'l.updated_at ASC, l.id ASC',
  name: 'catalog_fold(l.title) ASC, l.updated_at DESC, l.id DESC',
  likes: 'l.likes DESC, l.updated_at DESC, l.id DESC',
  size: 'l.preview_count DESC, l.updated_at DESC, l.id DESC',
};

/** The owner's lists this reader may see, under the query's filters (not yet ordered or paged). */
function visibleLists(knex: Knex, ownerId: string, relation: ReaderRelation, query: ListsQuery) {
  const visible = visibleItems('l', relation);
  const rows = knex('lists as l')
    .leftJoin('list_folders as f', 'f.id', 'l.folder_id')
    .where('l.account_id', ownerId)
    .whereRaw(visible.sql, visible.bindings);
  if (query.visibility) rows.where('l.visibility', query.visibility);
  if (query.mode) rows.where('l.mode', query.mode);
  if (query.before) rows.where('l.updated_at', '<', new Date(query.before));
  if (query.folder === NO_FOLDER) rows.whereNull('l.folder_id');
  // An unknown folder id (or someone else's) simply matches nothing.
  else if (query.folder !== undefined) rows.where('f.public_id', query.folder);
  const text = query.q?.trim();
  if (text) {
    const like = likeContaining(text);
    rows.where((match) =>
      match
        .whereRaw('catalog_fold(l.title) LIKE catalog_fold(?)', [like])
        .orWhereRaw('catalog_fold(l.description) LIKE catalog_fold(?)', [like]),
    );
  }
  return rows;
}

function presentList(row: ListRow, owner: boolean) {
  return {
    id: row.public_id,
    title: row.title,
    description: row.description,
    // Only the owner learns which audience a list is shared with.
    ...(owner ? { visibility: row.visibility } : {}),
    mode: row.mode,
    likes: row.likes,
    comments: row.comments,
    awards: row.awards,
    size: row.preview_count,
    folder: row.folder,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export async function readLists(knex: Knex, ownerId: string, relation: ReaderRelation, query: ListsQuery) {
  const base = visibleLists(knex, ownerId, relation, query);
  const [rows, total] = await Promise.all([
    base
      .clone()
      .select(
        'l.public_id',
        'l.title',
        'l.description',
        'l.visibility',
        'l.mode',
        'l.likes',
        'l.awards',
        // A likeable thing shows its reactions wherever it is shown (DECISIONS: What the feed and the things carry).
        knex.raw(`${commentCountSql('LIST', 'l.id')} AS comments`),
        'l.preview_count',
        'f.public_id as folder',
        'l.created_at',
        'l.updated_at',
      )
      .orderByRaw(ORDER[query.sort])
      .limit(query.limit)
      .offset(query.offset) as Promise<ListRow[]>,
    base
      .clone()
      .first(knex.raw('count(*)::int AS total'))
      .then((row: { total: number }) => row.total),
  ]);
  return {
    data: rows.map((row) => presentList(row, relation === 'owner')),
    // The spec's page object over pages of `limit` lists. A `before` cursor comes without an offset (the
    // route refuses both together), so its page is always number 1 of the lists before that instant.
    page: offsetPage(query.offset, query.limit, total, LIST_PAGE.maxOffset),
  };
}

/**
 * The owner's folders with the number of lists the reader may see in each, and `unfiled` for the visible
 * lists in no folder. The owner sees every folder, empty ones included; a visitor sees only folders holding
 * something they may read, so an empty or all-private folder does not reveal itself, not even its name.
 */
export async function readFolders(knex: Knex, ownerId: string, relation: ReaderRelation) {
  const visible = visibleItems('l', relation);
  const [folders, unfiled] = await Promise.all([
    knex
      .raw<{ rows: Array<{ id: string; name: string; count: number }> }>(
        `SELECT f.public_id AS id, f.name, count(l.id)::int AS count
         FROM list_folders f LEFT JOIN lists l ON l.folder_id = f.id AND ${visible.sql}
         WHERE f.account_id = ?
         GROUP BY f.id
         HAVING ?::boolean OR count(l.id) > 0
         ORDER BY catalog_fold(f.name), f.created_at, f.id`,
        [...visible.bindings, ownerId, relation === 'owner'],
      )
      .then(({ rows }) => rows),
    knex('lists as l')
      .where('l.account_id', ownerId)
      .whereNull('l.folder_id')
      .whereRaw(visible.sql, visible.bindings)
      .first(knex.raw('count(*)::int AS count'))
      .then((row: { count: number }) => row.count),
  ]);
  return { data: { folders, unfiled } };
}
