// A person's screenshot gallery (spec: GET /profiles/{username}/screenshots): 48 a page, filters for
// spoilers, one game and text, new or old first. `total`, `safe_count` and `spoiler_count` count the
// whole gallery under the filters; `games` lists every game of the gallery the reader may see. Captures
// removed by moderation count nowhere, for anyone. Each query reads only what the reader may see.
import type { Knex } from 'knex';
import { loadPresentedGames } from '../catalog/games.js';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { visibleItems, type ReaderRelation } from './item-visibility.js';
import { commentCountSql } from '../content/comment-count.js';
import { likeContaining } from '../platform/db/like.js';

export const SCREENSHOT_PAGE = { size: 48 };

export interface GalleryQuery {
  page: number;
  q?: string;
  spoilers: 'all' | 'safe' | 'spoilers';
  sort: 'new' | 'old';
  game?: string;
  games?: number;
}

interface CaptureRow {
  public_id: string;
  game_id: number | null;
  description: string;
  visibility: string;
  contains_spoilers: boolean;
  sensitive: boolean;
  image_key: string;
  image_width: number;
  image_height: number;
  thumbnail_key: string | null;
  thumbnail_width: number | null;
  thumbnail_height: number | null;
  likes: number;
  comments: number;
  awards: Record<string, number>;
  created_at: Date;
}

/** The gallery's conditions except the spoiler filter, which the counts split by. */
function gallery(knex: Knex, ownerId: string, relation: ReaderRelation, query: GalleryQuery) {
  const visible = visibleItems('s', relation);
  const rows = knex('screenshots as s')
    .leftJoin('games as g', 'g.id', 's.game_id')
    .where('s.account_id', ownerId)
    .whereNull('s.removed_at')
    .whereRaw(visible.sql, visible.bindings);
  if (query.game) rows.where('g.slug', query.game);
  const text = query.q?.trim();
  if (text) {
    // A slug written with spaces matches its hyphens, and the other way round.
    const like = likeContaining(text);
    const slugLike = likeContaining(text.replace(/[\s-]+/g, '-'));
    rows.where((match) =>
      match
        .whereRaw('catalog_fold(s.description) LIKE catalog_fold(?)', [like])
        .orWhereRaw('g.name_folded LIKE catalog_fold(?)', [like])
        .orWhereRaw('g.slug LIKE lower(?)', [slugLike]),
    );
  }
  return rows;
}

export async function readGallery(
  knex: Knex,
  ownerId: string,
  relation: ReaderRelation,
  query: GalleryQuery,
  mediaUrl: (key: string) => string,
) {
  const base = gallery(knex, ownerId, relation, query);
  const page = base.clone();
  if (query.spoilers === 'safe') page.where('s.contains_spoilers', false);
  if (query.spoilers === 'spoilers') page.where('s.contains_spoilers', true);
  const { limit, offset } = pageWindow(query.page, SCREENSHOT_PAGE);
  const direction = query.sort === 'old' ? 'asc' : 'desc';
  const visible = visibleItems('s', relation);
  const [rows, counts, games] = await Promise.all([
    page
      .clone()
      .select(
        's.*',
        // A likeable thing shows its reactions wherever it is shown (DECISIONS: What the feed and the things carry).
        knex.raw(`${commentCountSql('SCREENSHOT', 's.id')} AS comments`),
      )
      .orderBy([
        { column: 's.created_at', order: direction },
        { column: 's.id', order: direction },
      ])
      .limit(limit)
      .offset(offset) as Promise<CaptureRow[]>,
    base
      .clone()
      .first(
        knex.raw('count(*)::int AS all'),
        knex.raw('count(*) FILTER (WHERE NOT s.contains_spoilers)::int AS safe'),
        knex.raw('count(*) FILTER (WHERE s.contains_spoilers)::int AS spoilers'),
      ),
    // Every game of the gallery the reader may see, whatever the filters.
    knex('screenshots as s')
      .leftJoin('games as g', 'g.id', 's.game_id')
      .where('s.account_id', ownerId)
      .whereNull('s.removed_at')
      .whereNotNull('s.game_id')
      .whereRaw(visible.sql, visible.bindings)
      .groupBy('s.game_id', 'g.slug', 'g.name')
      .select('s.game_id', 'g.slug', 'g.name', knex.raw('count(*)::int AS count'))
      .orderByRaw('g.name NULLS LAST, s.game_id') as Promise<
      Array<{ game_id: number; slug: string | null; name: string | null; count: number }>
    >,
  ]);
  const total = query.spoilers === 'safe' ? counts.safe : query.spoilers === 'spoilers' ? counts.spoilers : counts.all;
  const answer: Record<string, unknown> = {
    data: rows.map((row) => presentCapture(row, relation === 'owner', mediaUrl)),
    page: pageObject(query.page, SCREENSHOT_PAGE, total),
    total,
    safe_count: counts.safe,
    spoiler_count: counts.spoilers,
    games: games.map((game) => ({ extdb_id: game.game_id, game_slug: game.slug, name: game.name, count: game.count })),
  };
  if (query.games === 1) answer.catalog = await catalogOf(knex, rows);
  return answer;
}

function presentCapture(row: CaptureRow, owner: boolean, mediaUrl: (key: string) => string) {
  return {
    id: row.public_id,
    game_id: row.game_id,
    description: row.description,
    contains_spoilers: row.contains_spoilers,
    sensitive: row.sensitive,
    image_url: mediaUrl(row.image_key),
    image_width: row.image_width,
    image_height: row.image_height,
    thumbnail_url: row.thumbnail_key ? mediaUrl(row.thumbnail_key) : null,
    thumbnail_width: row.thumbnail_key ? row.thumbnail_width : null,
    thumbnail_height: row.thumbnail_key ? row.thumbnail_height : null,
    likes: row.likes,
    comments: row.comments,
    awards: row.awards,
    created_at: new Date(row.created_at).toISOString(),
    ...(owner ? { visibility: row.visibility } : {}),
  };
}

/** `games=1`: the catalog rows (shaped like /games) of the games on this page, in one query. */
function catalogOf(knex: Knex, rows: CaptureRow[]) {
  return loadPresentedGames(
    knex,
    rows.map((row) => row.game_id).filter((id): id is number => id !== null),
  );
}
