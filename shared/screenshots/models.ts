// A capture's row: its image, its thumbnail once made, and what its author says about it.
import type { ContentVisibility } from '../content/content-fields.js';
import { BaseModel } from '../platform/db/base-model.js';

export class Screenshot extends BaseModel {
  static override tableName = 'screenshots';
  static override touchesUpdatedAt = true;
  static override jsonAttributes = ['awards'];

  declare id: string;
  declare account_id: string;
  declare public_id: string;
  declare game_id: number | null;
  declare description: string;
  declare visibility: ContentVisibility;
  declare contains_spoilers: boolean;
  declare sensitive: boolean;
  declare removed_at: Date | null;
  declare image_key: string;
  declare image_width: number;
  declare image_height: number;
  declare thumbnail_key: string | null;
  declare thumbnail_width: number | null;
  declare thumbnail_height: number | null;
  declare created_at: Date;
  declare updated_at: Date;
  declare likes: number;
  declare awards: Record<string, number>;
  /** The stored image's size, counted by the capture quota. */
  declare bytes: number;
}

/** A capture's columns as its reads select them. */
export const CAPTURE_COLUMNS = [
  'id',
  'account_id',
  'public_id',
  'game_id',
  'description',
  'visibility',
  'contains_spoilers',
  'sensitive',
  'removed_at',
  'image_key',
  'image_width',
  'image_height',
  'thumbnail_key',
  'thumbnail_width',
  'thumbnail_height',
  'bytes',
  'likes',
  'awards',
  'created_at',
  'updated_at',
] as const;

export type ScreenshotColumns = Pick<Screenshot, (typeof CAPTURE_COLUMNS)[number]>;
