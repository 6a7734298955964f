// One review with what it shows (author's name, game card, comment count) and what the reader is to its
// author (follows, a block either way), in one statement. Who may see it is decided by review-rules.ts.
import type { Knex } from 'knex';
import { isUuid } from '../platform/validation/uuid.js';
import { NOBODY } from '../people/visibility.js';
import { thingSeenBy } from '../people/item-visibility.js';
import { reviewNotFound } from './review-rules.js';
import type { FoundReview, ReviewRow } from './rows.js';
import { commentCountSql } from '../content/comment-count.js';

const STATEMENT = `
  SELECT r.*, a.username,
    ${commentCountSql('REVIEW', 'r.id')} AS comments,
    g.slug AS game_slug, g.name AS game_name, g.cover_image_id AS game_cover_image_id,
    EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :reader AND f.followee_id = r.account_id) AS follows,
    EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = r.account_id)
      OR (b.blocker_id = r.account_id AND b.blocked_id = :reader)) AS blocked
  FROM reviews r
  JOIN accounts a ON a.id = r.account_id
  LEFT JOIN games g ON g.id = r.game_id
  WHERE r.id = :id`;

/**
 * The review of `id` as `readerId` (null: anonymous) finds it, or null when there is none (an id that is
 * not a UUID names none).
 */
export async function findReview(
  knex: Knex | Knex.Transaction,
  id: string,
  readerId: string | null,
): Promise<FoundReview | null> {
  if (!isUuid(id)) return null;
  const { rows } = await knex.raw<{ rows: Array<ReviewRow & { follows: boolean; blocked: boolean }> }>(STATEMENT, {
    id,
    reader: readerId ?? NOBODY,
  });
  if (!rows[0]) return null;
  const { follows, blocked, ...review } = rows[0];
  return { review, follows, blocked };
}

/** The review of `id` as its author sees it: null when it is not theirs (or there is none). */
export async function findOwnReview(
  knex: Knex | Knex.Transaction,
  authorId: string,
  id: string,
): Promise<ReviewRow | null> {
  const found = await findReview(knex, id, authorId);
  return found && found.review.account_id === authorId ? found.review : null;
}

/** The review of `id` if `readerId` may see it (thingSeenBy), else 404 `review_not_found`, as for no review. */
export async function readReview(knex: Knex, id: string, readerId: string | null): Promise<ReviewRow> {
  const found = await findReview(knex, id, readerId);
  if (!found) throw reviewNotFound();
  const { review, follows, blocked } = found;
  const access = { authorId: review.account_id, visibility: review.visibility, removed: review.removed_at !== null };
  if (!thingSeenBy(access, { id: readerId, follows, blocked })) throw reviewNotFound();
  return review;
}
