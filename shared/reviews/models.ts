// A review's row: one per game an account has written about.
import type { ContentVisibility } from '../content/content-fields.js';
import { BaseModel } from '../platform/db/base-model.js';

export class Review extends BaseModel {
  static override tableName = 'reviews';
  static override touchesUpdatedAt = true;
  static override jsonAttributes = ['awards'];

  declare id: string;
  declare account_id: string;
  declare game_id: number;
  declare body: string;
  declare rating: number | null;
  declare contains_spoilers: boolean;
  declare visibility: ContentVisibility;
  declare likes: number;
  declare awards: Record<string, number>;
  declare removed_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
  /** The feed's text index of the body (kept by its trigger). */
  declare words: string | null;
}
