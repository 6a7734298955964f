// The library's rows as the commands and loaders read them (tables library_entries and library_copies).
import type { EntryFields } from './entry-rules.js';

export interface EntryRow extends Omit<EntryFields, 'finished_at'> {
  id: string;
  account_id: string;
  game_id: number;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An entry with what the answer shows of its game (null: the catalog lost it). */
export interface EntryWithGame extends EntryRow {
  game_slug: string | null;
  game_name: string | null;
  game_cover_image_id: string | null;
}

export const COPY_FORMATS = ['digital', 'physical'] as const;
export type CopyFormat = (typeof COPY_FORMATS)[number];

export interface CopyRow {
  id: string;
  account_id: string;
  game_id: number;
  platform_id: number | null;
  format: CopyFormat;
  note: string;
  created_at: Date;
  updated_at: Date;
}
