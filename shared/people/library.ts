// A person's library as a reader sees it (spec: GET /profiles/{username}/library): everything to the
// owner and for a PUBLIC library, to followers for a FOLLOWERS one, and an empty page (not an error)
// otherwise, so a client need not tell "private" from "empty". Filters combine with AND; the total comes
// from its own count, so `has_more` is right even past the last row.
import type { Knex } from 'knex';
import { pageObject, pageWindow, type PageSpec } from '../paging.js';

export const LIBRARY_STATUSES = ['COMPLETED', 'PLAYING', 'ON_HOLD', 'DROPPED', 'BACKLOG', 'WISHLIST'] as const;
export const LIBRARY_SORTS = ['updated', 'rating'] as const;
export const LIBRARY_FLAGS = ['playing', 'backlog', 'wishlist', 'liked'] as const;

export interface LibraryQuery {
  page: number;
  limit: number;
  status?: (typeof LIBRARY_STATUSES)[number];
  playing?: boolean;
  backlog?: boolean;
  wishlist?: boolean;
  liked?: boolean;
  sort: (typeof LIBRARY_SORTS)[number];
  games?: number;
}

const ENTRY_COLUMNS = [
  'game_id',
  'status',
  'playing',
  'backlog',
  'wishlist',
  'liked',
  'rating',
  'platform_id',
  'updated_at',
  'created_at',
];

const ORDER: Record<LibraryQuery['sort'], string> = {
  updated: 'updated_at DESC, id DESC',
  // Unrated entries last; ties (and all the unrated) by the most recent change.
  rating: 'rating DESC NULLS LAST, updated_at DESC, id DESC',
};

function filtered(knex: Knex, ownerId: string, query: LibraryQuery): Knex.QueryBuilder {
  const rows = knex('library_entries').where('account_id', ownerId);
  if (query.status) rows.where('status', query.status);
  for (const flag of ['playing', 'backlog', 'liked'] as const) {
    if (query[flag] !== undefined) rows.where(flag, query[flag]);
  }
  // Wishlist as the summary counts it: the flag, or the WISHLIST status.
  if (query.wishlist !== undefined) {
    const condition = "(wishlist OR status IS NOT DISTINCT FROM 'WISHLIST')";
    rows.whereRaw(query.wishlist ? condition : `NOT ${condition}`);
  }
  return rows;
}

/** Name, cover and slug of the page's games, in one query; a game the catalog lost maps to null. */
async function gamesOf(knex: Knex, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows: Array<{ id: number; name: string; slug: string }> =
    unique.length === 0 ? [] : await knex('games').whereIn('id', unique).select('id', 'name', 'slug');
  const byId = new Map(rows.map((row) => [row.id, row]));
  return Object.fromEntries(
    unique.map((id) => {
      const game = byId.get(id);
      // The catalog has no covers yet: the member is there so clients can rely on its shape.
      return [id, game ? { name: game.name, cover: null, slug: game.slug } : null];
    }),
  );
}

export async function readLibrary(
  knex: Knex,
  owner: { id: string; username: string | null },
  query: LibraryQuery,
  seesLibrary: boolean,
) {
  const spec: PageSpec = { size: query.limit };
  const { limit, offset } = pageWindow(query.page, spec);
  const [entries, total] = seesLibrary
    ? await Promise.all([
        filtered(knex, owner.id, query).select(ENTRY_COLUMNS).orderByRaw(ORDER[query.sort]).limit(limit).offset(offset),
        filtered(knex, owner.id, query)
          .count<Array<{ count: string }>>('* as count')
          .then(([row]) => Number(row.count)),
      ])
    : [[], 0];
  return {
    data: entries,
    page: pageObject(query.page, spec, total),
    profile: { username: owner.username },
    ...(query.games === 1
      ? {
          games: await gamesOf(
            knex,
            entries.map((e: { game_id: number }) => e.game_id),
          ),
        }
      : {}),
  };
}
