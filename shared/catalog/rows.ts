// The catalog's rows as its reads hand them on: a game as searches and lookups read it, before the
// presenter (shared/catalog/presenters.ts) turns it into the spec's JSON.
/** The columns of a GameRow, in the order every read selects them. */
export const GAME_ROW_COLUMNS = [
  'id',
  'slug',
  'name',
  'release_year',
  'type',
  'rating',
  'genre_ids',
  'demo_available',
  'cover_image_id',
] as const;

export interface GameRow {
  id: number;
  slug: string;
  name: string;
  release_year: number | null;
  type: number | null;
  rating: number | null;
  genre_ids: number[];
  demo_available: boolean;
  /** Upstream's image id of the cover (shared/content/game-covers.ts), null for a game without one. */
  cover_image_id: string | null;
}
