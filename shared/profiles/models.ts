// A profile's row (created on its first write; GET /profile answers defaults before) and the owner's
// drafts (migration 20261122000400_drafts).
import type { RelationMappings } from 'objection';
import { Image } from '../media/models.js';
import { BaseModel, belongsToOne } from '../platform/db/base-model.js';

export class Profile extends BaseModel {
  static override tableName = 'profiles';
  static override idColumn = 'account_id';
  static override touchesUpdatedAt = true;

  declare account_id: string;
  declare bio: string;
  declare pronouns: string;
  declare thought: string;
  declare video_username: string;
  declare photo_username: string;
  declare microblog_username: string;
  declare library_visibility: 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE';
  declare created_at: Date;
  declare updated_at: Date;
  /** The current pictures (the images of purpose avatar and banner keep their history). */
  declare avatar_image_id: string | null;
  declare banner_image_id: string | null;

  static override get relationMappings(): RelationMappings {
    return {
      avatar: belongsToOne(Image, 'profiles.avatar_image_id', 'images.id'),
      banner: belongsToOne(Image, 'profiles.banner_image_id', 'images.id'),
    };
  }
}

export class Draft extends BaseModel {
  static override tableName = 'drafts';
  static override touchesUpdatedAt = true;

  declare id: string;
  declare account_id: string;
  declare kind: 'review' | 'list' | 'journal' | 'note';
  declare title: string;
  declare body: string;
  declare game: string | null;
  declare created_at: Date;
  declare updated_at: Date;
}
