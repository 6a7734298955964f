// The library's answers: rows in, the JSON of DECISIONS' Library out. Never queries: the loaders join
// the game's slug, name and cover in the same statement that reads the entries.
import { gameCard, type CardGame } from '../content/game-refs.js';
import type { CopyRow, EntryWithGame } from './rows.js';

const iso = (value: Date | string | null) => (value == null ? null : new Date(value).toISOString());

/** The entry's game as the loader joined it; null when the catalog lost the game. */
export function entryGame(row: EntryWithGame): CardGame | null {
  return row.game_slug == null
    ? null
    : { slug: row.game_slug, name: row.game_name ?? '', cover_image_id: row.game_cover_image_id };
}

/** An entry: its game as a card (null when the catalog lost the game), its fields and its times. */
export function presentEntry(row: EntryWithGame) {
  return {
    game_id: row.game_id,
    game: gameCard(entryGame(row)),
    status: row.status,
    playing: row.playing,
    backlog: row.backlog,
    wishlist: row.wishlist,
    liked: row.liked,
    ignored: row.ignored,
    rating: row.rating,
    platform_id: row.platform_id,
    finished_at: iso(row.finished_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** An owned copy, as GET /library/copies lists it. */
export function presentCopy(row: Pick<CopyRow, 'id' | 'game_id' | 'platform_id' | 'format' | 'note' | 'created_at'>) {
  return {
    id: row.id,
    game_id: row.game_id,
    platform_id: row.platform_id,
    format: row.format,
    note: row.note,
    created_at: iso(row.created_at)!,
  };
}
