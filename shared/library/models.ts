// A library's rows: one entry per game the owner keeps (its status and flags), and the copies they own of
// a game. The entry's writes are one prepared statement each (entry-statements.ts, the `content` and
// `events` benchmarks' PUT /library); reads and the other commands go through these models.
import { BaseModel } from '../platform/db/base-model.js';
import type { EntryStatus } from './entry-rules.js';

export class LibraryEntry extends BaseModel {
  static override tableName = 'library_entries';
  static override touchesUpdatedAt = true;

  declare id: string;
  declare account_id: string;
  declare game_id: number;
  declare status: EntryStatus | null;
  declare playing: boolean;
  declare backlog: boolean;
  declare wishlist: boolean;
  declare liked: boolean;
  declare ignored: boolean;
  declare rating: number | null;
  declare platform_id: number | null;
  declare finished_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
}

export const COPY_FORMATS = ['digital', 'physical'] as const;
export type CopyFormat = (typeof COPY_FORMATS)[number];

export class LibraryCopy extends BaseModel {
  static override tableName = 'library_copies';
  static override touchesUpdatedAt = true;

  declare id: string;
  declare account_id: string;
  declare game_id: number;
  declare platform_id: number | null;
  declare format: CopyFormat;
  declare note: string;
  declare created_at: Date;
  declare updated_at: Date;
}
