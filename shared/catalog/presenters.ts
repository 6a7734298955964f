// A catalog game as the API shows it (spec: Catalog game). The genre names come loaded in one batch for a
// whole page (loadGenreNames in shared/catalog/games.ts), so presenting never queries. `cover_url` is beyond
// the spec's list ("other fields: not shown"), named as a game's card names it (DECISIONS: Library).
import { coverUrl } from '../content/game-covers.js';
import type { GameRow } from './rows.js';

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
    cover_url: coverUrl(row.cover_image_id),
  };
}

export function presentGames(rows: GameRow[], genres: Map<number, string>) {
  return rows.map((row) => presentGame(row, genres));
}
