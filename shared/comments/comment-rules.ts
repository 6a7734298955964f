// The rules of comments that need no database (DECISIONS: Likes and comments): the body's bounds, the
// hourly cap, who may read or join a profile's conversation, and who may delete a comment.
import { fieldsInvalid } from '../content/content-rules.js';
import { forbidden, notFound } from '../platform/errors.js';
import type { RollingCap } from '../platform/rate-limits/rolling-cap.js';
import { ITEM_VISIBILITIES, type ItemVisibility, type ReaderRelation } from '../people/item-visibility.js';

/** A comment's body: 1 to 1,000 characters (code points). */
export const COMMENT_BODY = { min: 1, max: 1000 };

/** 30 comments per account in any 60 minutes, counted in the writing transaction. */
export const COMMENT_HOURLY_CAP: RollingCap = { name: 'comments', limit: 30, windowSeconds: 3600 };

/** GET /comments: `limit` 1 to 100, 20 when omitted (DECISIONS: Cursor reads). */
export const COMMENTS_PAGE = { min: 1, max: 100, default: 20 };

export function commentNotFound() {
  return notFound('No comment of yours, or on what is yours, has this id.', 'comment_not_found');
}

export function noSuchPerson() {
  return notFound('No one has this username.');
}

export function followersOnly() {
  return forbidden('followers_only', {}, 'This account’s conversation is open to its followers only.');
}

/** A body of nothing but white space says nothing: the data's refusal, as for reviews. */
export function refuseBlankBody(body: string): void {
  if (/^\s*$/u.test(body)) throw fieldsInvalid('body', 'body must say something.');
}

/**
 * Pure: whether a reader with this relation to a profile's owner reads and joins its conversation. A
 * private account (library visibility FOLLOWERS or PRIVATE) keeps it to its owner and followers, as its
 * profile pages (shared/people/visibility.ts viewsOf); blocks are decided before this.
 */
export function conversationOpen(libraryVisibility: ItemVisibility, relation: ReaderRelation): boolean {
  return libraryVisibility === 'PUBLIC' || relation !== 'other';
}

const RELATIONS: readonly ReaderRelation[] = ['owner', 'follower', 'other'];

/**
 * SQL: conversationOpen of a library visibility and a relation given as SQL expressions (relationSql),
 * written out from conversationOpen itself, for the statement that writes a comment.
 */
export function conversationOpenSql(libraryVisibility: string, relation: string): string {
  const cases = RELATIONS.map((each) => {
    const open = ITEM_VISIBILITIES.filter((visibility) => conversationOpen(visibility, each));
    const test = open.length === 0 ? 'false' : `${libraryVisibility} IN (${open.map((v) => `'${v}'`).join(', ')})`;
    return `WHEN '${each}' THEN ${test}`;
  });
  return `(CASE ${relation} ${cases.join(' ')} ELSE false END)`;
}

/** Pure: a comment is deleted by its author, or by the owner of the profile or thing it is on. */
export function mayDeleteComment(comment: { authorId: string; ownerId: string }, actorId: string): boolean {
  return actorId === comment.authorId || actorId === comment.ownerId;
}
