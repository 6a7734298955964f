// What a review is made of: its row with what it shows beside it (its author's name, its game, the count of
// comments on it), and what its author sends.
import type { ContentVisibility } from '../content/content-fields.js';
import type { ReviewFields } from './models.js';

export interface ReviewRow extends ReviewFields {
  /** The author's current username (null while they have none). */
  username: string | null;
  /** Comments on the review that moderation has not removed. */
  comments: number;
  /** The catalog's game, null when the catalog no longer has it. */
  game_slug: string | null;
  game_name: string | null;
  game_cover_image_id: string | null;
}

/** A review as a reader finds it: the row and what the reader is to its author. */
export interface FoundReview {
  review: ReviewRow;
  follows: boolean;
  blocked: boolean;
}

/** What `POST /reviews` takes, defaults applied by the schema. */
export interface ReviewInput {
  game_id: number;
  body: string;
  rating: number | null;
  contains_spoilers: boolean;
  visibility: ContentVisibility;
}

/** What `PATCH /reviews/{id}` takes: only the fields sent change. */
export type ReviewChanges = Partial<ReviewInput>;
