// A game's session totals (spec: GET /games/{slug}/activity): what the route adds beside the game's feed,
// counted over the sessions the reader may see, by the same rules as the feed's items.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { blockedSql, canSeeSql, followsSql, relationSql } from './item-visibility.js';
import { NOBODY } from './visibility.js';
import { coveredDaysSql } from './session-days.js';

/** SQL: the reader (bound as :reader) may see the session `p` by its visibility and their relation. */
const SEEN = canSeeSql('p.visibility', relationSql(':reader', 'p.account_id', followsSql(':reader', 'p.account_id')));

/**
 * Session totals of a game as the reader may see them (spec: GET /games/{slug}/activity): closed sessions
 * and their minutes, and distinct calendar days with a session; a live session counts in none.
 *
 * Days are the UTC calendar days each session covers (session-days.ts).
 */
export async function gameSessionTotals(knex: Knex, gameId: number, readerId: string | null) {
  const { rows } = await knex.raw<{ rows: Array<{ sessions: number; minutes: number; days: number }> }>(
    `WITH seen AS (
       SELECT p.started_at, p.ended_at, p.minutes FROM play_sessions p
       WHERE p.game_id = :game AND p.ended_at IS NOT NULL AND p.removed_at IS NULL AND ${SEEN}
         AND (p.account_id = :reader OR ${NOT_SUSPENDED('p.account_id')})
         AND NOT ${blockedSql(':reader', 'p.account_id')})
     SELECT (SELECT count(*) FROM seen)::int AS sessions,
       (SELECT coalesce(sum(minutes), 0) FROM seen)::int AS minutes,
       (SELECT count(DISTINCT day) FROM seen s, ${coveredDaysSql('s')} AS day)::int AS days`,
    { game: gameId, reader: readerId ?? NOBODY },
  );
  return rows[0];
}
