// A person's social side as a reader sees it (spec: GET /profiles/{username}/social): follower counts,
// the reader's relationship to them, the profile conversation, and the reader's own wallet. The
// conversation shows only what this reader may see: nothing moderation removed, no author who blocks the
// reader or whom the reader blocks (or whom the owner blocks), and no suspended author unless the reader
// is staff. Two statements: relationship and counts together, then the newest comments with their total.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { presentPersonSummary } from './presenters.js';
import { mineralsOf } from './standing.js';

/** How many comments of the conversation one answer carries, newest first. */
export const CONVERSATION_SIZE = 20;

export interface SocialReader {
  id: string | null;
  staff: boolean;
}

interface RelationRow {
  followers: number;
  following: number;
  viewer_follows: boolean;
  follows_viewer: boolean;
  requested: boolean;
}

interface CommentRow {
  id: string;
  body: string;
  created_at: Date;
  username: string;
  display_name: string | null;
  avatar_key: string | null;
  total: number;
}

async function relationAndCounts(knex: Knex, ownerId: string, readerId: string | null): Promise<RelationRow> {
  const reader = readerId ?? '00000000-0000-0000-0000-000000000000';
  const { rows } = await knex.raw<{ rows: RelationRow[] }>(
    `SELECT
       (SELECT count(*) FROM follows WHERE followee_id = :o)::int AS followers,
       (SELECT count(*) FROM follows WHERE follower_id = :o)::int AS following,
       EXISTS (SELECT 1 FROM follows WHERE follower_id = :r AND followee_id = :o) AS viewer_follows,
       EXISTS (SELECT 1 FROM follows WHERE follower_id = :o AND followee_id = :r) AS follows_viewer,
       EXISTS (SELECT 1 FROM follow_requests WHERE requester_id = :r AND target_id = :o) AS requested`,
    { o: ownerId, r: reader },
  );
  return rows[0];
}

async function conversation(knex: Knex, ownerId: string, reader: SocialReader, mediaUrl: (key: string) => string) {
  const readerId = reader.id ?? '00000000-0000-0000-0000-000000000000';
  // The count rides along as a window over the same filtered rows, so page and total cannot disagree.
  const { rows } = await knex.raw<{ rows: CommentRow[] }>(
    `SELECT c.id, c.body, c.created_at, a.username, a.display_name, i.storage_key AS avatar_key,
            count(*) OVER ()::int AS total
       FROM comments c
       JOIN accounts a ON a.id = c.account_id
       LEFT JOIN profiles p ON p.account_id = a.id
       LEFT JOIN images i ON i.id = p.avatar_image_id
      WHERE c.target_kind = 'PROFILE' AND c.target_id = :owner AND c.removed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM blocks b
              WHERE (b.blocker_id IN (:reader, :owner) AND b.blocked_id = c.account_id)
                 OR (b.blocker_id = c.account_id AND b.blocked_id = :reader))
        AND (:staff OR c.account_id = :reader OR ${NOT_SUSPENDED('c.account_id')})
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT :size`,
    { owner: ownerId, reader: readerId, staff: reader.staff, size: CONVERSATION_SIZE },
  );
  return {
    total: rows[0]?.total ?? 0,
    comments: rows.map((row) => ({
      id: row.id,
      author: presentPersonSummary(row, mediaUrl),
      body: row.body,
      created_at: new Date(row.created_at).toISOString(),
    })),
  };
}

/**
 * The social answer for `owner` as `reader` sees it. `fullPages`: the reader sees the profile pages in full
 * (a private account shows its conversation to its owner and followers only; others get null).
 */
export async function profileSocial(
  knex: Knex,
  owner: { id: string; username: string | null },
  reader: SocialReader,
  fullPages: boolean,
  mediaUrl: (key: string) => string,
) {
  const self = reader.id === owner.id;
  const [relation, talk, wallet] = await Promise.all([
    relationAndCounts(knex, owner.id, reader.id),
    fullPages ? conversation(knex, owner.id, reader, mediaUrl) : Promise.resolve(null),
    // The wallet is the reader's own, never the person's: an anonymous reader has none.
    reader.id ? mineralsOf(knex, reader.id) : Promise.resolve(null),
  ]);
  return {
    username: owner.username,
    followers: relation.followers,
    following: relation.following,
    relationship: reader.id
      ? {
          self,
          following: !self && relation.viewer_follows,
          requested: !self && relation.requested,
          followed_by: !self && relation.follows_viewer,
        }
      : null,
    conversation: talk,
    wallet,
  };
}
