// The library's rows as the commands and loaders read them: the models' columns (models.ts), and an entry
// with what the answer shows of its game.
import type { LibraryCopy, LibraryEntry } from './models.js';

export { COPY_FORMATS, type CopyFormat } from './models.js';

/** An entry's columns. */
export type EntryRow = Pick<
  LibraryEntry,
  | 'id'
  | 'account_id'
  | 'game_id'
  | 'status'
  | 'playing'
  | 'backlog'
  | 'wishlist'
  | 'liked'
  | 'ignored'
  | 'rating'
  | 'platform_id'
  | 'finished_at'
  | 'created_at'
  | 'updated_at'
>;

/** An entry with what the answer shows of its game (null: the catalog lost it). */
export interface EntryWithGame extends EntryRow {
  game_slug: string | null;
  game_name: string | null;
  game_cover_image_id: string | null;
}

/** A copy's columns. */
export type CopyRow = Pick<
  LibraryCopy,
  'id' | 'account_id' | 'game_id' | 'platform_id' | 'format' | 'note' | 'created_at' | 'updated_at'
>;
