// catalog.stats (every 5 minutes, and `npm run op -- catalog stats`): per-game counts of the service's own
// activity into `game_stats`, then the aggregates search sorts by. Only games with activity, now or at
// the last run, are touched: the rest keep what the import gave them. Each step is one statement, so two
// runs at once compute the same thing and the later write wins with identical values.
import type { Knex } from 'knex';
import { refreshCompanyCounts } from './companies.js';
import { GameStats } from './models.js';

/** Votes that pull a game's weighted rating towards the site mean (Bayesian average). */
export const PRIOR_VOTES = 10;
/** How far back activity counts as trending. */
export const TRENDING_DAYS = 7;

export interface StatsReport {
  games: number;
  changed: number;
}

export async function recomputeCatalogStats(knex: Knex): Promise<StatsReport> {
  const { rows } = await knex.raw<{ rows: Array<{ games: number }> }>(
    `WITH entries AS (
       SELECT game_id, count(*) AS library,
         count(*) FILTER (WHERE playing OR status = 'PLAYING') AS playing,
         count(*) FILTER (WHERE status = 'COMPLETED') AS finished,
         count(*) FILTER (WHERE wishlist OR status = 'WISHLIST') AS wishlisted,
         count(*) FILTER (WHERE liked) AS favorited,
         avg(rating) AS rating, count(rating) AS rating_count
       FROM library_entries WHERE NOT ignored GROUP BY game_id),
     written AS (
       SELECT game_id, count(DISTINCT account_id) AS reviewing,
         count(*) FILTER (WHERE visibility = 'PUBLIC') AS review_count
       FROM reviews WHERE removed_at IS NULL GROUP BY game_id),
     runs AS (SELECT game_id, count(DISTINCT account_id) AS journeys FROM journeys WHERE removed_at IS NULL GROUP BY game_id),
     logged AS (
       SELECT game_id, count(DISTINCT account_id) AS sessions FROM play_sessions WHERE removed_at IS NULL GROUP BY game_id),
     recent AS (
       SELECT game_id, count(*) AS recent_activity FROM activity_items
       WHERE game_id IS NOT NULL AND created_at > now() - make_interval(days => :days) GROUP BY game_id),
     touched AS (
       SELECT game_id FROM entries UNION SELECT game_id FROM written UNION SELECT game_id FROM runs
       UNION SELECT game_id FROM logged UNION SELECT game_id FROM recent UNION SELECT game_id FROM game_stats),
     computed AS (
       SELECT t.game_id,
         coalesce(e.library, 0) AS library, coalesce(e.playing, 0) AS playing, coalesce(e.finished, 0) AS finished,
         coalesce(e.wishlisted, 0) AS wishlisted, coalesce(e.favorited, 0) AS favorited,
         coalesce(w.reviewing, 0) AS reviewing, coalesce(r.journeys, 0) AS journeys,
         coalesce(l.sessions, 0) AS sessions, coalesce(n.recent_activity, 0) AS recent_activity,
         e.rating::real AS rating, coalesce(e.rating_count, 0) AS rating_count,
         coalesce(w.review_count, 0) AS review_count
       FROM touched t
       LEFT JOIN entries e USING (game_id) LEFT JOIN written w USING (game_id) LEFT JOIN runs r USING (game_id)
       LEFT JOIN logged l USING (game_id) LEFT JOIN recent n USING (game_id))
     INSERT INTO game_stats (game_id, library, playing, finished, wishlisted, favorited, reviewing, journeys,
       sessions, recent_activity, rating, rating_count, review_count, updated_at)
     SELECT *, now() FROM computed
     ON CONFLICT (game_id) DO UPDATE SET
       library = excluded.library, playing = excluded.playing, finished = excluded.finished,
       wishlisted = excluded.wishlisted, favorited = excluded.favorited, reviewing = excluded.reviewing,
       journeys = excluded.journeys, sessions = excluded.sessions, recent_activity = excluded.recent_activity,
       rating = excluded.rating, rating_count = excluded.rating_count, review_count = excluded.review_count,
       updated_at = now()
     RETURNING 1 AS games`,
    { days: TRENDING_DAYS },
  );
  const updated = await knex.raw<{ rowCount: number }>(
    `WITH mean AS (SELECT coalesce(avg(rating), 50)::real AS c FROM library_entries WHERE rating IS NOT NULL AND NOT ignored)
     UPDATE games g SET
       rating = s.rating,
       rating_count = s.rating_count,
       weighted_rating = CASE WHEN s.rating_count = 0 THEN NULL
         ELSE (s.rating_count * s.rating + :prior * mean.c) / (s.rating_count + :prior) END,
       review_count = s.review_count,
       library_count = s.library,
       popularity = g.upstream_popularity + s.library + 2 * s.reviewing + s.sessions + s.journeys,
       trending = s.recent_activity,
       updated_at = now()
     FROM game_stats s, mean
     WHERE s.game_id = g.id AND (g.rating, g.rating_count, g.review_count, g.library_count, g.trending,
       g.popularity) IS DISTINCT FROM (s.rating, s.rating_count, s.review_count, s.library, s.recent_activity::real,
       g.upstream_popularity + s.library + 2 * s.reviewing + s.sessions + s.journeys)`,
    { prior: PRIOR_VOTES },
  );
  // Rows of games no one touches any more go, once their zeros have reached the games above.
  await GameStats.query(knex)
    .where({ library: 0, reviewing: 0, journeys: 0, sessions: 0, recent_activity: 0, review_count: 0 })
    .delete();
  await refreshCompanyCounts(knex);
  return { games: rows.length, changed: updated.rowCount };
}

/** GET /games/stats: per game of `ids` that has any, in the order asked; games without activity read zero. */
export async function gameStats(knex: Knex, ids: number[]) {
  const rows: Array<Record<string, number> & { id: number }> = await knex('games as g')
    .leftJoin('game_stats as s', 's.game_id', 'g.id')
    .whereIn('g.id', ids)
    .select(
      'g.id',
      'g.popularity',
      'g.trending',
      ...['library', 'playing', 'finished', 'wishlisted', 'favorited', 'reviewing', 'journeys', 'sessions'].map(
        (column) => knex.raw(`coalesce(s.${column}, 0)::int AS ${column}`),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids
    .map((id) => byId.get(id))
    .filter((row) => row !== undefined)
    .map((row) => ({
      id: row.id,
      library: row.library,
      playing: row.playing,
      finished: row.finished,
      wishlisted: row.wishlisted,
      favorited: row.favorited,
      reviewing: row.reviewing,
      journeys: row.journeys,
      sessions: row.sessions,
      popularity: row.popularity,
      trending: row.trending,
    }));
}
