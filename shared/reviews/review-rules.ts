// The rules of reviews that need no database (DECISIONS: Reviews; Shared rules): the body's bounds, the daily
// cap, and who may read one review. The read follows the person feed (GET /profiles/{u}/reviews): the
// review's own visibility, blocks either way, and the author's suspension ignored, since a page of one
// person shows their items as their other pages do.
import type { RollingCap } from '../platform/rate-limits/rolling-cap.js';
import { notFound } from '../platform/errors.js';
import { fieldsInvalid } from '../content/content-rules.js';
import type { ContentVisibility } from '../content/content-fields.js';
import { canSee, relationTo } from '../people/item-visibility.js';

/** A review's body: 1 to 10,000 characters (code points). */
export const REVIEW_BODY = { min: 1, max: 10_000 };

/** 50 reviews per account in any 24 hours (DECISIONS: Reviews), counted in the creating transaction. */
export const REVIEW_DAILY_CAP: RollingCap = { name: 'reviews', limit: 50, windowSeconds: 86_400 };

export function reviewNotFound() {
  return notFound('No review you may see has this id.', 'review_not_found');
}

/**
 * A body of nothing but white space (any Unicode space, line breaks included) says nothing: the schema
 * counts its characters, this refuses it as the data's refusal.
 */
export function refuseBlankBody(body: string | undefined): void {
  if (body !== undefined && /^\s*$/u.test(body)) throw fieldsInvalid('body', 'body must say something.');
}

/** What decides whether one reader sees one review. */
export interface ReviewAccess {
  authorId: string;
  visibility: ContentVisibility;
  removed: boolean;
}

export interface ReviewReader {
  /** Null: nobody is signed in. */
  id: string | null;
  /** The reader follows the author. */
  follows: boolean;
  /** A block in either direction between the reader and the author. */
  blocked: boolean;
}

/**
 * Pure: the author always sees their review (removed or not); anyone else only while it is not removed,
 * nobody blocks the other, and its visibility allows the reader's relation to the author.
 */
export function reviewSeenBy(review: ReviewAccess, reader: ReviewReader): boolean {
  if (reader.id !== null && reader.id === review.authorId) return true;
  if (review.removed || reader.blocked) return false;
  return canSee(review.visibility, relationTo(reader.id, review.authorId, reader.follows));
}

/**
 * Whether the answer may be kept by the reader's browser (to revalidate by its ETag): only a PUBLIC review
 * read by nobody signed in. Any other answer depends on who asks and what they are to the author, and
 * goes out `private, no-store`.
 */
export function reviewAnswerKeepable(visibility: ContentVisibility, readerId: string | null): boolean {
  return visibility === 'PUBLIC' && readerId === null;
}
