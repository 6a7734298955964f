// A catalog game's cover. The catalog stores upstream's image id (IGDB's `cover.image_id`, as the import
// reads it) and never an address, so the host and size of the image are decided here, in one place, for
// every answer that shows a game: the catalog's rows (`cover_url`), a game's card on entries, sessions,
// reviews and history (`cover_url`) and the `games=1` maps of the library reads (`cover`). A game without a
// cover (the demo catalog's: its source has none) answers null. It lives beside the game cards (game-refs.ts),
// not in the catalog: the catalog already reaches this folder (through moderation and notifications), so
// the cards importing the catalog would close a loop between folders.

/**
 * What a stored image id may hold (migration game_covers checks the same): letters, digits, `_` and `-`,
 * so an id can never leave its path segment of the URL (no `/`, `.`, `?` or `%`).
 */
export const COVER_IMAGE_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
const COVER_IMAGE_ID = new RegExp(COVER_IMAGE_ID_PATTERN);

/**
 * IGDB's image host at the `t_cover_big` size (264 x 374, JPEG): upstream serves every image id at every
 * size from this one address, so no copy of the images is kept.
 */
export const COVER_URL_PREFIX = 'https://images.igdb.com/igdb/image/upload/t_cover_big/';

/** The image id as stored, or null for anything that is not one (an import's missing or odd value). */
export function coverImageId(value: unknown): string | null {
  return typeof value === 'string' && COVER_IMAGE_ID.test(value) ? value : null;
}

/** The cover's URL for a stored image id; null for a game without a cover. */
export function coverUrl(imageId: string | null | undefined): string | null {
  return imageId ? `${COVER_URL_PREFIX}${imageId}.jpg` : null;
}
