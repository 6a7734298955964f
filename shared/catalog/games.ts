// Reads of single games and of several by id (spec: GET /games/{slug}, GET /games/ratings), and the genre
// names a page of games is presented with.
import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import { presentGames } from './presenters.js';
import { Game } from './models.js';
import { GAME_ROW_COLUMNS, type GameRow } from './rows.js';

export async function gameBySlug(knex: Knex, slug: string): Promise<GameRow> {
  const row: GameRow | undefined = await Game.query(knex)
    .findOne({ slug })
    .select(...GAME_ROW_COLUMNS);
  if (!row) throw notFound('No game has this slug.');
  return row;
}

/** The id of the game with this slug, if the catalog knows one. */
export async function gameIdBySlug(knex: Knex, slug: string): Promise<number | undefined> {
  const row = await Game.query(knex).findOne({ slug }).select('id');
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

/**
 * Genre names already read, per web process: the catalog's few genres change only when it is imported, and
 * asking for them anew was one statement more on every page of the catalog. A name is read again after a
 * minute, as the public answers' own `max-age=60` allows.
 */
const genreNames = new Map<number, { name: string; at: number }>();
const GENRE_NAMES_TTL_MS = 60_000;

/** Forgets the genre names read so far (tests that rebuild the catalog). */
export function forgetGenreNames(): void {
  genreNames.clear();
}

/** The names of every genre the rows name, in one query at most: what presentGame needs besides the row. */
export async function loadGenreNames(knex: Knex, rows: GameRow[], now = Date.now()): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((row) => row.genre_ids))];
  const missing = ids.filter((id) => {
    const known = genreNames.get(id);
    return !known || now - known.at >= GENRE_NAMES_TTL_MS;
  });
  if (missing.length > 0) {
    const found: Array<{ id: number; name: string }> = await knex('catalog_genres')
      .whereIn('id', missing)
      .select('id', 'name');
    for (const id of missing) genreNames.delete(id);
    for (const genre of found) genreNames.set(genre.id, { name: genre.name, at: now });
  }
  const names = new Map<number, string>();
  for (const id of ids) {
    const known = genreNames.get(id);
    if (known) names.set(id, known.name);
  }
  return names;
}

/** The catalog rows of these games shaped like `/games`, by name; games the catalog lost are absent. */
export async function loadPresentedGames(knex: Knex, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows: GameRow[] = await knex('games')
    .whereIn('id', unique)
    .select(...GAME_ROW_COLUMNS)
    .orderBy('name');
  return presentGames(rows, await loadGenreNames(knex, rows));
}
