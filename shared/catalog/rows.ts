// The catalog's rows as its reads hand them on: a game as searches and lookups read it, before the
// presenter (shared/catalog/presenters.ts) turns it into the spec's JSON.
import type { ModelObject } from 'objection';
import type { Game } from './models.js';

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

/** A game as searches and lookups read it: those columns of the model's. */
export type GameRow = Pick<ModelObject<Game>, (typeof GAME_ROW_COLUMNS)[number]>;
