// A comment's row: where it is (a profile or a thing), its author, and its body.
import { BaseModel } from '../platform/db/base-model.js';
import type { CommentTargetKind } from './rows.js';

export class Comment extends BaseModel {
  static override tableName = 'comments';

  declare id: string;
  declare account_id: string;
  declare target_kind: CommentTargetKind;
  declare target_id: string;
  declare target_account_id: string;
  declare body: string;
  declare created_at: Date;
  declare removed_at: Date | null;
}
