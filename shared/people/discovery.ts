// People to discover (spec: GET /discovery/people): friends playing (people the reader follows who are
// playing something now, by the sessions a follower may see) and people with a similar taste (the most
// games liked or rated 80 and up in common with the reader, from libraries the reader may see). Blocked
// either way, suspended and the reader themself never appear. A reader with no account gets two empty
// lists.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { canSeeSql } from './item-visibility.js';
import { presentPersonSummary } from './presenters.js';

export const DISCOVERY_LIMIT = 20;
/** A game counts towards taste when liked or rated at least this. */
const LOVED = 80;
const PLAYING_DAYS = 14;

interface PersonRow {
  id: string;
  username: string;
  display_name: string | null;
  avatar_key: string | null;
  level: number | null;
}

const PERSON = `a.id, a.username, a.display_name, i.storage_key AS avatar_key, m.level`;
const PERSON_JOINS = `LEFT JOIN profiles pr ON pr.account_id = a.id
  LEFT JOIN images i ON i.id = pr.avatar_image_id
  LEFT JOIN mineral_balances m ON m.account_id = a.id`;
/**
 * SQL: a session `s` of a friend the reader may see by its visibility. The reader follows every friend, so
 * a follower's view from the shared table (PUBLIC and FOLLOWERS, never PRIVATE); removed sessions and
 * blocks either way are left out beside it.
 */
const FRIEND_MAY_SEE = canSeeSql('s.visibility', "'follower'");
const NOT_BLOCKED = `NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = a.id)
  OR (b.blocker_id = a.id AND b.blocked_id = :reader))`;

function present(row: PersonRow, mediaUrl: (key: string) => string) {
  return { ...presentPersonSummary(row, mediaUrl), level: row.level ?? 1 };
}

export async function discoverPeople(knex: Knex, readerId: string | null, mediaUrl: (key: string) => string) {
  if (!readerId) return { friends_playing: [], similar_taste: [] };
  const [playing, similar] = await Promise.all([
    knex.raw<{ rows: Array<PersonRow & { games: number[] }> }>(
      `SELECT ${PERSON}, now_playing.games FROM follows f
         JOIN accounts a ON a.id = f.followee_id
         JOIN LATERAL (
           SELECT array_agg(DISTINCT s.game_id) AS games FROM play_sessions s
           WHERE s.account_id = a.id AND ${FRIEND_MAY_SEE} AND s.removed_at IS NULL
             AND (s.ended_at IS NULL OR s.started_at > now() - make_interval(days => :days))
         ) now_playing ON now_playing.games IS NOT NULL
         ${PERSON_JOINS}
       WHERE f.follower_id = :reader AND ${NOT_BLOCKED} AND ${NOT_SUSPENDED('a.id')}
       ORDER BY a.username LIMIT :limit`,
      { reader: readerId, days: PLAYING_DAYS, limit: DISCOVERY_LIMIT },
    ),
    knex.raw<{ rows: Array<PersonRow & { shared: number }> }>(
      `WITH mine AS (
         SELECT game_id FROM library_entries WHERE account_id = :reader AND (liked OR rating >= :loved) AND NOT ignored)
       SELECT ${PERSON}, count(*)::int AS shared FROM library_entries e
         JOIN mine USING (game_id)
         JOIN accounts a ON a.id = e.account_id
         ${PERSON_JOINS}
       WHERE e.account_id <> :reader AND (e.liked OR e.rating >= :loved) AND NOT e.ignored AND a.username IS NOT NULL
         AND (coalesce(pr.library_visibility, 'PUBLIC') = 'PUBLIC'
              OR (pr.library_visibility = 'FOLLOWERS'
                  AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :reader AND f.followee_id = a.id)))
         AND ${NOT_BLOCKED} AND ${NOT_SUSPENDED('a.id')}
       GROUP BY a.id, a.username, a.display_name, i.storage_key, m.level
       ORDER BY shared DESC, a.username LIMIT :limit`,
      { reader: readerId, loved: LOVED, limit: DISCOVERY_LIMIT },
    ),
  ]);
  return {
    friends_playing: playing.rows.map((row) => ({ ...present(row, mediaUrl), games: row.games.slice(0, 3) })),
    similar_taste: similar.rows.map((row) => ({ ...present(row, mediaUrl), shared_games: row.shared })),
  };
}
