// The owner's drafts (migration 20261122000400_drafts).
import { BaseModel } from '../platform/db/base-model.js';

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
