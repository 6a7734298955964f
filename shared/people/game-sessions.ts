// A game's session totals (spec: GET /games/{slug}/activity): what the route adds beside the game's feed,
// counted over the sessions the reader may see, by the same rules as the feed's items.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { NOBODY } from './visibility.js';

/** SQL: the reader may see an item of `visibility` by the author `author` (reader bound as :reader). */
const SIGNED_IN_SEEN = (visibility: string, author: string) => `(${author} = :reader OR ${visibility} = 'PUBLIC'
  OR (${visibility} = 'FOLLOWERS' AND EXISTS (SELECT 1 FROM follows fo WHERE fo.follower_id = :reader AND fo.followee_id = ${author})))`;

/**
 * Session totals of a game as the reader may see them (spec: GET /games/{slug}/activity): closed sessions
 * and their minutes, and distinct calendar days (UTC) with a session; a live session counts in none.
 */
export async function gameSessionTotals(knex: Knex, gameId: number, readerId: string | null) {
  const { rows } = await knex.raw<{ rows: Array<{ sessions: number; minutes: number; days: number }> }>(
    `SELECT count(*)::int AS sessions, coalesce(sum(p.minutes), 0)::int AS minutes,
       count(DISTINCT (p.started_at AT TIME ZONE 'UTC')::date)::int AS days
     FROM play_sessions p
     WHERE p.game_id = :game AND p.ended_at IS NOT NULL AND p.removed_at IS NULL AND ${SIGNED_IN_SEEN('p.visibility', 'p.account_id')}
       AND (p.account_id = :reader OR ${NOT_SUSPENDED('p.account_id')})
       AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = p.account_id)
         OR (b.blocker_id = p.account_id AND b.blocked_id = :reader))`,
    { game: gameId, reader: readerId ?? NOBODY },
  );
  return rows[0];
}
