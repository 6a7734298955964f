// Reads of single games and of several by id (spec: GET /games/{slug}, GET /games/ratings), and the genre
// names a page of games is presented with.
import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import { presentGames } from './presenters.js';
import type { GameRow } from './rows.js';

export async function gameBySlug(knex: Knex, slug: string): Promise<GameRow> {
  const row: GameRow | undefined = await knex('games')
    .where({ slug })
    .first('id', 'slug', 'name', 'release_year', 'type', 'rating', 'genre_ids', 'demo_available');
  if (!row) throw notFound('No game has this slug.');
  return row;
}

/** The id of the game with this slug, if the catalog knows one. */
export async function gameIdBySlug(knex: Knex, slug: string): Promise<number | undefined> {
  const row: { id: number } | undefined = await knex('games').where({ slug }).first('id');
  return row?.id;
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

/** The names of every genre the rows name, in one query: what presentGame needs besides the row. */
export async function loadGenreNames(knex: Knex, rows: GameRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((row) => row.genre_ids))];
  if (ids.length === 0) return new Map();
  const found: Array<{ id: number; name: string }> = await knex('catalog_genres')
    .whereIn('id', ids)
    .select('id', 'name');
  return new Map(found.map((genre) => [genre.id, genre.name]));
}

/** The catalog rows of these games shaped like `/games`, by name; games the catalog lost are absent. */
export async function loadPresentedGames(knex: Knex, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows: GameRow[] = await knex('games')
    .whereIn('id', unique)
    .select('id', 'slug', 'name', 'release_year', 'type', 'rating', 'genre_ids', 'demo_available')
    .orderBy('name');
  return presentGames(rows, await loadGenreNames(knex, rows));
}
