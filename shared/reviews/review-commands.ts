// The author's writes of reviews (DECISIONS: Reviews), each in its own transaction: the review, its feed
// item and its use of the daily cap commit together or not at all. A review's feed item takes its
// visibility from the review (the database keeps it), and leaves with the review (a trigger, which also
// deletes the comments on it).
import type { Knex } from 'knex';
import { fieldsInvalid } from '../content/content-rules.js';
import { moveFeedItems } from '../content/feed-items.js';
import { gameInBody } from '../content/game-refs.js';
import { queryPrepared } from '../platform/db/prepared.js';
import { forbidden } from '../platform/errors.js';
import { rollingCapRefusal, rollingKey, rollingUseSql } from '../platform/rate-limits/rolling-cap.js';
import { isUuid } from '../platform/validation/uuid.js';
import { findOwnReview } from './load-review.js';
import { Review } from './models.js';
import { refuseBlankBody, REVIEW_DAILY_CAP, reviewNotFound } from './review-rules.js';
import type { ReviewChanges, ReviewInput, ReviewRow } from './rows.js';

/**
 * A new review by `authorId`, in one statement and no transaction around it (POST /reviews is on the
 * community's hot path: p95 under 30 ms at 20 clients, and each round trip cost more than the work): the
 * game, the daily cap's use (taken only when the game exists, so a refused review uses nothing), the review,
 * its feed item and what the answer shows. A game may be reviewed any number of times (a replay). The feed
 * item is written with the visibility the review has; the database derives it after the statement (which
 * sees the review) and corrects it were it ever wrong, so the common case writes the item once.
 */
// Prepared: planning this statement took longer (3 ms) than running it.
const CREATE_REVIEW = `WITH game AS (SELECT id, slug, name, cover_image_id FROM games WHERE id = $1),
  cap AS (${rollingUseSql('$7', '$8', '$9', 'FROM game')}),
  made AS (INSERT INTO reviews (account_id, game_id, body, rating, contains_spoilers, visibility)
    SELECT $2, game.id, $3, $4, $5, $6 FROM game, cap
    RETURNING id, account_id, game_id, body, rating, contains_spoilers, visibility, likes, awards, removed_at,
      created_at, updated_at),
  item AS (INSERT INTO activity_items (account_id, kind, subject_id, game_id, visibility)
    SELECT account_id, 'review', id, game_id, visibility FROM made)
  SELECT (SELECT count(*) FROM game)::int AS found, made.*,
    (SELECT a.username FROM accounts a WHERE a.id = $2) AS username, 0 AS comments,
    game.slug AS game_slug, game.name AS game_name, game.cover_image_id AS game_cover_image_id
  FROM (SELECT 1) AS one LEFT JOIN made ON true LEFT JOIN game ON true`;

export async function createReview(knex: Knex, authorId: string, input: ReviewInput): Promise<ReviewRow> {
  refuseBlankBody(input.body);
  const [row] = (await queryPrepared(knex, 'jogatina_review_create', CREATE_REVIEW, [
    input.game_id,
    authorId,
    input.body,
    input.rating,
    input.contains_spoilers,
    input.visibility,
    rollingKey(REVIEW_DAILY_CAP, authorId),
    REVIEW_DAILY_CAP.windowSeconds,
    REVIEW_DAILY_CAP.limit,
  ])) as unknown as Array<ReviewRow & { found: number }>;
  if (row.found === 0) throw fieldsInvalid('game_id', 'The catalog has no game with this id.');
  // The game exists and nothing was made: the cap's window is full.
  if (!row.id) throw await rollingCapRefusal(knex, REVIEW_DAILY_CAP, authorId);
  const { found: _, ...review } = row;
  return review;
}

/**
 * Changes the fields sent of the author's review; another's, or none, is 404. A removed review cannot be
 * changed (403 `removed`). A new game is checked, and the review's feed items move to it.
 */
export async function updateReview(
  knex: Knex,
  authorId: string,
  id: string,
  changes: ReviewChanges,
): Promise<ReviewRow> {
  refuseBlankBody(changes.body);
  return knex.transaction(async (trx) => {
    // Locked before it is judged, so two edits at once (or an edit and a removal) apply one after the other.
    const own =
      isUuid(id) && (await Review.query(trx).select('id').where({ id, account_id: authorId }).forUpdate().first());
    if (!own) throw reviewNotFound();
    const current = (await findOwnReview(trx, authorId, id))!;
    if (current.removed_at !== null) {
      throw forbidden('removed', {}, 'Moderation removed this review: it can be deleted, not changed.');
    }
    const sent = sentFields(changes);
    if (Object.keys(sent).length === 0) return current;
    const movesGame = sent.game_id !== undefined && sent.game_id !== current.game_id;
    if (movesGame) await gameInBody(trx, sent.game_id!);
    await Review.query(trx).findById(id).patch(sent);
    if (movesGame) await moveFeedItems(trx, 'review', id, sent.game_id!);
    return (await findOwnReview(trx, authorId, id))!;
  });
}

/** The review's own fields among those sent: nothing else reaches the row, whatever the caller passed. */
function sentFields(changes: ReviewChanges): ReviewChanges {
  const { game_id, body, rating, contains_spoilers, visibility } = changes;
  const fields = { game_id, body, rating, contains_spoilers, visibility };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** Deletes the author's review (removed or not); its feed items and the comments on it go with it. */
export async function deleteReview(knex: Knex, authorId: string, id: string): Promise<void> {
  const deleted = isUuid(id) ? await Review.query(knex).where({ id, account_id: authorId }).delete() : 0;
  if (deleted === 0) throw reviewNotFound();
}
