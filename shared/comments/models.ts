// A comment's row: where it is (a profile or a thing), its author, and its body.
import type { RelationMappings } from 'objection';
import { Account } from '../accounts/account.js';
import { BaseModel, belongsToOne } from '../platform/db/base-model.js';
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

  static override get relationMappings(): RelationMappings {
    return {
      author: belongsToOne(Account, 'comments.account_id', 'accounts.id'),
      // The account whose profile or thing the comment is on.
      owner: belongsToOne(Account, 'comments.target_account_id', 'accounts.id'),
    };
  }
}
