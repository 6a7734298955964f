// A catalog game as the API shows it (spec: Catalog game): the genre names come loaded in one batch for a
// whole page, so presenting never queries.
import type { Knex } from 'knex';
import type { GameRow } from './game-search.js';

export function presentGame(row: GameRow, genres: Map<number, string>) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    release_year: row.release_year,
    type: row.type,
    rating: row.rating === null ? null : Math.round(row.rating * 10) / 10,
    genres: row.genre_ids.map((id) => genres.get(id)).filter((name): name is string => name !== undefined),
    demo_available: row.demo_available,
  };
}

/** The names of every genre the rows name, in one query. */
export async function genreNames(knex: Knex, rows: GameRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((row) => row.genre_ids))];
  if (ids.length === 0) return new Map();
  const found: Array<{ id: number; name: string }> = await knex('catalog_genres')
    .whereIn('id', ids)
    .select('id', 'name');
  return new Map(found.map((genre) => [genre.id, genre.name]));
}

export async function presentGames(knex: Knex, rows: GameRow[]) {
  const genres = await genreNames(knex, rows);
  return rows.map((row) => presentGame(row, genres));
}
