// The rules of reviews that need no database (DECISIONS: Reviews; Shared rules): the body's bounds, the daily
// cap, and who may read one review. The read follows the person feed (GET /profiles/{u}/reviews): the
// review's own visibility, blocks either way, and the author's suspension ignored, since a page of one
// person shows their items as their other pages do.
import type { RollingCap } from '../platform/rate-limits/rolling-cap.js';
import { notFound } from '../platform/errors.js';
import { fieldsInvalid } from '../content/content-rules.js';

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
