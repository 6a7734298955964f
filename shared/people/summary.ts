// A person's counts for their profile header (spec: GET /profiles/{username}/summary). Only what the
// reader may see is counted: the library when the reader sees the profile in full, and lists, reviews,
// diary sessions, journeys and screenshots by each item's own visibility. Two statements: the relation
// between reader and owner (which decides the visibility condition), then every count at once.
import type { Knex } from 'knex';
import { relationTo, visibleItems, type ReaderRelation, type SqlCondition } from './item-visibility.js';

export interface ProfileSummary {
  library: number;
  played: number;
  playing: number;
  backlog: number;
  wishlist: number;
  lists: number;
  reviews: number;
  diary: number;
  journeys: number;
  screenshots: number;
  screenshot_games: number;
  screenshot_spoilers: number;
  followers: number;
  following: number;
  viewer_follows: boolean;
  follows_viewer: boolean;
}

interface Relation {
  viewer_follows: boolean;
  follows_viewer: boolean;
}

/** Follows in both directions; both false for an anonymous reader and on one's own profile. */
async function followsBetween(knex: Knex, readerId: string | null, ownerId: string): Promise<Relation> {
  if (!readerId || readerId === ownerId) return { viewer_follows: false, follows_viewer: false };
  const { rows } = await knex.raw<{ rows: Relation[] }>(
    `SELECT
       EXISTS (SELECT 1 FROM follows WHERE follower_id = :r AND followee_id = :o) AS viewer_follows,
       EXISTS (SELECT 1 FROM follows WHERE follower_id = :o AND followee_id = :r) AS follows_viewer`,
    { r: readerId, o: ownerId },
  );
  return rows[0];
}

/** One `(SELECT …) alias` of the counts statement, with its positional bindings in order. */
function part(sql: string, bindings: Knex.Value[]): SqlCondition {
  return { sql, bindings };
}

function counts(ownerId: string, relation: ReaderRelation, seesLibrary: boolean): SqlCondition[] {
  const seen = (alias: string) => visibleItems(alias, relation);
  const [l, r, s, j, sc] = [seen('l'), seen('r'), seen('s'), seen('j'), seen('sc')];
  return [
    // A replayed game is COMPLETED with the playing flag: it counts in both, as the spec asks.
    part(
      `(SELECT count(*)::int AS library,
         count(*) FILTER (WHERE le.status = 'COMPLETED')::int AS played,
         count(*) FILTER (WHERE le.playing)::int AS playing,
         count(*) FILTER (WHERE le.backlog)::int AS backlog,
         count(*) FILTER (WHERE le.wishlist OR le.status = 'WISHLIST')::int AS wishlist
       FROM library_entries le WHERE le.account_id = ? AND NOT le.ignored AND ?::boolean) lib`,
      [ownerId, seesLibrary],
    ),
    part(`(SELECT count(*)::int AS lists FROM lists l WHERE l.account_id = ? AND ${l.sql}) li`, [
      ownerId,
      ...l.bindings,
    ]),
    part(`(SELECT count(*)::int AS reviews FROM reviews r WHERE r.account_id = ? AND ${r.sql}) re`, [
      ownerId,
      ...r.bindings,
    ]),
    // The diary holds closed sessions; one still running is not an entry yet.
    part(
      `(SELECT count(*)::int AS diary FROM play_sessions s
        WHERE s.account_id = ? AND s.ended_at IS NOT NULL AND ${s.sql}) di`,
      [ownerId, ...s.bindings],
    ),
    part(`(SELECT count(*)::int AS journeys FROM journeys j WHERE j.account_id = ? AND ${j.sql}) jo`, [
      ownerId,
      ...j.bindings,
    ]),
    // Captures a moderator removed count nowhere, not even for their owner.
    part(
      `(SELECT count(*)::int AS screenshots,
         count(DISTINCT sc.game_id)::int AS screenshot_games,
         count(*) FILTER (WHERE sc.contains_spoilers)::int AS screenshot_spoilers
       FROM screenshots sc WHERE sc.account_id = ? AND sc.removed_at IS NULL AND ${sc.sql}) sh`,
      [ownerId, ...sc.bindings],
    ),
    part(
      `(SELECT (SELECT count(*) FROM follows WHERE followee_id = ?)::int AS followers,
         (SELECT count(*) FROM follows WHERE follower_id = ?)::int AS following) so`,
      [ownerId, ownerId],
    ),
  ];
}

/** The summary `ownerId` shows the reader; `seesLibrary`: the reader's library view is 'full'. */
export async function profileSummary(
  knex: Knex,
  readerId: string | null,
  ownerId: string,
  seesLibrary: boolean,
): Promise<ProfileSummary> {
  const relation = await followsBetween(knex, readerId, ownerId);
  const parts = counts(ownerId, relationTo(readerId, ownerId, relation.viewer_follows), seesLibrary);
  const { rows } = await knex.raw<{ rows: Array<Omit<ProfileSummary, keyof Relation>> }>(
    `SELECT * FROM ${parts.map((p) => p.sql).join(',\n')}`,
    parts.flatMap((p) => p.bindings),
  );
  return { ...rows[0], ...relation };
}
