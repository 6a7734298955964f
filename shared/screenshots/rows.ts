// What a capture is made of: its row with what it shows beside it (the count of comments on it), and what
// its author sends (DECISIONS: Screenshots).
import type { CaptureFields } from '../media/rows.js';
import type { ScreenshotColumns } from './models.js';

export type { CaptureFields };

export interface CaptureRow extends ScreenshotColumns {
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
