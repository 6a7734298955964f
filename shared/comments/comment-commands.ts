// The writes of comments (DECISIONS: Likes and comments). A comment is one statement
// (comment-statements.ts): the place judged, the hourly cap's use, the comment and its answer commit
// together or not at all, and the thing it is on is held against deletion until it is written (a deleted
// thing takes its comments by trigger, which a comment written later would miss).
import type { Knex } from 'knex';
import { couldBeUsername } from '../people/visibility.js';
import { rollingCapRefusal } from '../platform/rate-limits/rolling-cap.js';
import { isUuid } from '../platform/validation/uuid.js';
import { couldNameSubject, SUBJECT_TABLES } from '../social/subjects.js';
import {
  COMMENT_HOURLY_CAP,
  commentNotFound,
  followersOnly,
  mayDeleteComment,
  noSuchPerson,
  refuseBlankBody,
} from './comment-rules.js';
import { writeComment } from './comment-statements.js';
import { Comment } from './models.js';
import type { CommentInput, CommentRow, ResolvedPlace } from './rows.js';

/**
 * A new comment by `authorId` where `input` says. The place is judged first (404 for what the author may
 * not see, 403 `followers_only` for a private account's conversation), then the cap, whose use is taken
 * only for a place that takes the comment.
 */
export async function postComment(
  knex: Knex,
  authorId: string,
  input: CommentInput,
): Promise<{ comment: CommentRow; place: ResolvedPlace }> {
  refuseBlankBody(input.body);
  const missing = input.on === 'PROFILE' ? noSuchPerson : SUBJECT_TABLES[input.on].notFound;
  const named =
    input.on === 'PROFILE' ? couldBeUsername(input.id) : couldNameSubject(SUBJECT_TABLES[input.on], input.id);
  if (!named) throw missing();
  const outcome = await writeComment(knex, authorId, input.on, input.id, input.body);
  if (!outcome.seen) throw missing();
  if (!outcome.open) throw followersOnly();
  // The place takes comments and none was written: the cap's window is full.
  if (outcome.id === null) throw await rollingCapRefusal(knex, COMMENT_HOURLY_CAP, authorId);
  const { id, body, created_at, username, display_name, avatar_key } = outcome;
  return {
    comment: { id, body, created_at, username, display_name, avatar_key },
    place: { kind: input.on, targetId: outcome.target_id!, ownerId: outcome.owner_id!, apiId: outcome.api_id! },
  };
}

/**
 * Deletes a comment (removed by moderation or not) as its author or the owner of what it is on; anyone
 * else, and no such comment, is 404 `comment_not_found`.
 */
export async function deleteComment(knex: Knex, actorId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw commentNotFound();
  await knex.transaction(async (trx) => {
    const row = await Comment.query(trx).select('account_id', 'target_account_id').findById(id).forUpdate();
    if (!row || !mayDeleteComment({ authorId: row.account_id, ownerId: row.target_account_id }, actorId)) {
      throw commentNotFound();
    }
    await Comment.query(trx).deleteById(id);
  });
}
