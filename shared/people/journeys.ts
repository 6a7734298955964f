// A person's journeys (runs through one game) as a reader sees them (spec: GET /profiles/{username}/journeys),
// newest first, each with its game shaped like `/games`. "A run is as visible as what is inside it and always
// to its author": a run holds no other item here (journeys refer to a game, not to sessions), so what is
// inside it is the run itself and its own `visibility` decides, by the per-item rule the profile summary and
// year pages use for their journey counts. The author matches every visibility through that same rule.
import type { Knex } from 'knex';
import { loadGenreNames } from '../catalog/games.js';
import { presentGames } from '../catalog/presenters.js';
import type { GameRow } from '../catalog/rows.js';
import { pageObject, pageWindow, type PageSpec } from '../platform/paging/paging.js';
import { visibleItems, type ReaderRelation } from './item-visibility.js';

export const JOURNEY_PAGE = { defaultLimit: 24, maxLimit: 48, maxPage: 200 };

export interface JourneysQuery {
  page: number;
  limit: number;
}

interface JourneyRow {
  id: string;
  game_id: number;
  title: string;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
}

const iso = (at: Date | null) => (at === null ? null : new Date(at).toISOString());

/** The catalog rows of the page's games, shaped like `/games`, in one batch; lost games are absent. */
async function gamesById(knex: Knex, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<number, unknown>();
  const rows: GameRow[] = await knex('games')
    .whereIn('id', unique)
    .select('id', 'slug', 'name', 'release_year', 'type', 'rating', 'genre_ids', 'demo_available');
  const presented = presentGames(rows, await loadGenreNames(knex, rows));
  return new Map<number, unknown>(presented.map((game) => [game.id, game]));
}

export async function readJourneys(knex: Knex, ownerId: string, relation: ReaderRelation, query: JourneysQuery) {
  const spec: PageSpec = { size: query.limit, maxPage: JOURNEY_PAGE.maxPage };
  const { limit, offset } = pageWindow(query.page, spec);
  const visible = visibleItems('j', relation);
  const base = knex('journeys as j').where('j.account_id', ownerId).whereRaw(visible.sql, visible.bindings);
  const [rows, total] = await Promise.all([
    base
      .clone()
      .select('j.id', 'j.game_id', 'j.title', 'j.started_at', 'j.finished_at', 'j.created_at')
      .orderBy([
        { column: 'j.created_at', order: 'desc' },
        { column: 'j.id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset) as Promise<JourneyRow[]>,
    base
      .clone()
      .first(knex.raw('count(*)::int AS total'))
      .then((row: { total: number }) => row.total),
  ]);
  const games = await gamesById(
    knex,
    rows.map((row) => row.game_id),
  );
  return {
    data: rows.map((row) => ({
      id: row.id,
      title: row.title,
      started_at: iso(row.started_at),
      finished_at: iso(row.finished_at),
      created_at: iso(row.created_at),
      // The catalog is re-imported from upstream and may have lost a game someone still ran.
      game: games.get(row.game_id) ?? null,
    })),
    page: pageObject(query.page, spec, total),
  };
}
