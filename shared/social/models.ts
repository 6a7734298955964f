// The social graph (social-graph.ts): follows, requests to follow a private account, blocks; and likes
// of people's things (likes.ts, like-statements.ts). Each row is a pair, its key both columns.
import { BaseModel } from '../platform/db/base-model.js';
import type { CommentedKind } from '../content/comment-count.js';

export class Follow extends BaseModel {
  static override tableName = 'follows';
  static override idColumn = ['follower_id', 'followee_id'];

  declare follower_id: string;
  declare followee_id: string;
  declare created_at: Date;
}

export class FollowRequest extends BaseModel {
  static override tableName = 'follow_requests';
  static override idColumn = ['requester_id', 'target_id'];

  declare requester_id: string;
  declare target_id: string;
  declare created_at: Date;
}

export class Block extends BaseModel {
  static override tableName = 'blocks';
  static override idColumn = ['blocker_id', 'blocked_id'];

  declare blocker_id: string;
  declare blocked_id: string;
  declare created_at: Date;
}

export class Like extends BaseModel {
  static override tableName = 'likes';
  static override idColumn = ['account_id', 'subject_kind', 'subject_id'];

  declare account_id: string;
  declare subject_kind: CommentedKind;
  /** The thing's row id. */
  declare subject_id: string;
  declare created_at: Date;
}
