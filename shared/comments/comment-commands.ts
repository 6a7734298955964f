// The writes of comments (DECISIONS: Likes and comments), each in one transaction: the comment and its use
// of the hourly cap commit together or not at all, and the thing it is on is held against deletion until
// it is written (a deleted thing takes its comments by trigger, which a comment written later would miss).
import type { Knex } from 'knex';
import { takeRollingUse } from '../platform/rate-limits/rolling-cap.js';
import { isUuid } from '../platform/validation/uuid.js';
import { COMMENT_HOURLY_CAP, commentNotFound, mayDeleteComment, refuseBlankBody } from './comment-rules.js';
import { loadComment, resolvePlace } from './load-comments.js';
import type { CommentInput, CommentRow, ResolvedPlace } from './rows.js';

/**
 * A new comment by `authorId` where `input` says. The place is judged first (404 for what the author may
 * not see, 403 `followers_only` for a private account's conversation), then the cap: a refusal after it
 * gives its use back with the rollback.
 */
export async function postComment(
  knex: Knex,
  authorId: string,
  input: CommentInput,
): Promise<{ comment: CommentRow; place: ResolvedPlace }> {
  refuseBlankBody(input.body);
  return knex.transaction(async (trx) => {
    const place = await resolvePlace(trx, input.on, input.id, authorId, { lock: true });
    await takeRollingUse(trx, COMMENT_HOURLY_CAP, authorId);
    const [made] = await trx('comments')
      .insert({
        account_id: authorId,
        target_kind: place.kind,
        target_id: place.targetId,
        target_account_id: place.ownerId,
        body: input.body,
      })
      .returning('id');
    return { comment: await loadComment(trx, made.id as string), place };
  });
}

/**
 * Deletes a comment (removed by moderation or not) as its author or the owner of what it is on; anyone
 * else, and no such comment, is 404 `comment_not_found`.
 */
export async function deleteComment(knex: Knex, actorId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw commentNotFound();
  await knex.transaction(async (trx) => {
    const row: { account_id: string; target_account_id: string } | undefined = await trx('comments')
      .where({ id })
      .forUpdate()
      .first('account_id', 'target_account_id');
    if (!row || !mayDeleteComment({ authorId: row.account_id, ownerId: row.target_account_id }, actorId)) {
      throw commentNotFound();
    }
    await trx('comments').where({ id }).delete();
  });
}
