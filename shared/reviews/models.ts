// A review's row: one per game an account has written about.
import type { RelationMappings } from 'objection';
import { Account } from '../accounts/account.js';
import { Game } from '../catalog/models.js';
import type { ContentVisibility } from '../content/content-fields.js';
import { BaseModel, belongsToOne } from '../platform/db/base-model.js';

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

  static override get relationMappings(): RelationMappings {
    return {
      author: belongsToOne(Account, 'reviews.account_id', 'accounts.id'),
      // A review outlives its game in the catalog (the game's fields then read null).
      game: belongsToOne(Game, 'reviews.game_id', 'games.id'),
    };
  }
}

/** A review's own columns as its reads select them (not the trigger-kept word index). */
export const REVIEW_COLUMNS = [
  'id',
  'account_id',
  'game_id',
  'body',
  'rating',
  'contains_spoilers',
  'visibility',
  'likes',
  'awards',
  'removed_at',
  'created_at',
  'updated_at',
] as const;

export type ReviewFields = Pick<Review, (typeof REVIEW_COLUMNS)[number]>;
