// Reads of single games and of several by id (spec: GET /games/{slug}, GET /games/ratings).
import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import type { GameRow } from './game-search.js';

export async function gameBySlug(knex: Knex, slug: string): Promise<GameRow> {
  const row: GameRow | undefined = await knex('games')
    .where({ slug })
    .first('id', 'slug', 'name', 'release_year', 'type', 'rating', 'genre_ids', 'demo_available');
  if (!row) throw notFound('No game has this slug.');
  return row;
}

/** Ratings of the games among `ids` that exist, in the order asked. */
export async function gameRatings(knex: Knex, ids: number[]) {
  const rows: Array<{ id: number; rating: number | null; rating_count: number; weighted_rating: number | null }> =
    await knex('games').whereIn('id', ids).select('id', 'rating', 'rating_count', 'weighted_rating');
  const byId = new Map(rows.map((row) => [row.id, row]));
  const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
  return ids
    .map((id) => byId.get(id))
    .filter((row) => row !== undefined)
    .map((row) => ({
      id: row.id,
      rating: round(row.rating),
      rating_count: row.rating_count,
      weighted_rating: round(row.weighted_rating),
    }));
}
