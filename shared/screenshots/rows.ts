// What a capture is made of: its row with what it shows beside it (the count of comments on it), and what
// its author sends (DECISIONS: Screenshots).
import type { ContentVisibility } from '../content/content-fields.js';
import type { CaptureFields } from '../media/rows.js';

export type { CaptureFields };

export interface CaptureRow {
  /** The row's id; clients name a capture by `public_id`. */
  id: string;
  account_id: string;
  public_id: string;
  game_id: number | null;
  description: string;
  visibility: ContentVisibility;
  contains_spoilers: boolean;
  sensitive: boolean;
  removed_at: Date | null;
  image_key: string;
  image_width: number;
  image_height: number;
  thumbnail_key: string | null;
  thumbnail_width: number | null;
  thumbnail_height: number | null;
  /** The image and its thumbnail together (PostgreSQL's bigint arrives as text). */
  bytes: string | number;
  likes: number;
  awards: Record<string, number>;
  created_at: Date;
  updated_at: Date;
  /** Comments on the capture that moderation has not removed. */
  comments: number;
}

/** A capture as a reader finds it: the row and what the reader is to its author. */
export interface FoundCapture {
  capture: CaptureRow;
  follows: boolean;
  blocked: boolean;
}

/** What `PATCH /screenshots/{id}` takes: only the fields sent change. */
export type CaptureChanges = Partial<CaptureFields>;
