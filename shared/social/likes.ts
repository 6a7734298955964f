// Likes (DECISIONS: Likes and comments): a person likes or stops liking a thing they may see, and reads back
// what they like. The like row and the thing's `likes` counter change together: the primary key makes a
// repeat insert nothing, and the database moves the counter only for a row really inserted or deleted
// (migration 20261125001200_likes), so parallel likes count exactly.
import type { Knex } from 'knex';
import { canSeeSql, relationSql } from '../people/item-visibility.js';
import { cursorPage, MICROSECONDS, type CursorPage } from '../content/cursor-page.js';
import { isLikeKind, LIKE_SUBJECTS, refuseOwnContent, unlikeableKind, type LikeKind } from './like-rules.js';
import { writeLike } from './like-statements.js';
import { couldNameSubject, SUBJECT_TABLES } from './subjects.js';

export interface LikeState {
  liked: boolean;
  likes: number;
}

/**
 * Likes (`liked` true) or stops liking the thing of `kind` named `apiId`, as `likerId`; repeating changes
 * nothing. What the liker may not see is its kind's 404; their own thing is 400 `own_content`. One
 * statement (like-statements.ts), which holds the thing against deletion until the like is written.
 */
export async function setLike(
  knex: Knex,
  likerId: string,
  kind: string,
  apiId: string,
  liked: boolean,
): Promise<LikeState> {
  if (!isLikeKind(kind)) throw unlikeableKind();
  const source = SUBJECT_TABLES[LIKE_SUBJECTS[kind]];
  if (!couldNameSubject(source, apiId)) throw source.notFound();
  const outcome = await writeLike(knex, likerId, kind, apiId, liked);
  if (!outcome.seen) throw source.notFound();
  refuseOwnContent(outcome.owner_id!, likerId);
  // Seen and not its liker's, yet not held: it was deleted while the statement waited for it.
  if (outcome.likes === null) throw source.notFound();
  return { liked, likes: outcome.likes };
}

export interface LikeRow {
  kind: LikeKind;
  /** The thing's id as clients name it. */
  id: string;
  /** Its owner's current username. */
  username: string | null;
  likes: number;
  /** When the like was given, to the microsecond. */
  created_at: string;
}

/** Each likeable table as one shape, so the caller's likes read as one list whatever they are of. */
const THINGS = (Object.entries(LIKE_SUBJECTS) as Array<[LikeKind, keyof typeof SUBJECT_TABLES]>)
  .map(([kind, subjectKind]) => {
    const { table, apiColumn } = SUBJECT_TABLES[subjectKind];
    return `SELECT t.${apiColumn}::text AS api_id, t.account_id, t.visibility, t.removed_at, t.likes
      FROM ${table} t WHERE l.subject_kind = '${kind}' AND t.id = l.subject_id`;
  })
  .join('\n    UNION ALL ');

/** Only what the liker may still see: not removed, no block either way, and visible to them. */
const STATEMENT = (range: string, limit: boolean) => `
  SELECT l.subject_kind AS kind, s.api_id AS id, a.username, s.likes,
    to_char(l.created_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS created_at
  FROM likes l
  CROSS JOIN LATERAL (${THINGS}) s
  JOIN accounts a ON a.id = s.account_id
  WHERE l.account_id = :reader AND (CAST(:kind AS text) IS NULL OR l.subject_kind = :kind) AND ${range}
    AND s.removed_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = s.account_id)
      OR (b.blocker_id = s.account_id AND b.blocked_id = :reader))
    AND ${canSeeSql(
      's.visibility',
      relationSql(
        'CAST(:reader AS uuid)',
        's.account_id',
        'EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :reader AND f.followee_id = s.account_id)',
      ),
    )}
  ORDER BY l.created_at DESC, l.subject_kind, l.subject_id DESC${limit ? '\n  LIMIT :limit' : ''}`;

/** The caller's likes, newest first, by cursor (DECISIONS: Cursor reads); `kind` keeps one kind. */
export async function listLikes(
  knex: Knex,
  likerId: string,
  query: { kind?: LikeKind; before?: string; limit: number },
): Promise<CursorPage<LikeRow>> {
  const base = { reader: likerId, kind: query.kind ?? null };
  const run = async (sql: string, bindings: Record<string, Knex.Value>) =>
    (await knex.raw<{ rows: LikeRow[] }>(sql, { ...base, ...bindings })).rows;
  return cursorPage<LikeRow>(
    {
      before: (before, limit) =>
        before === undefined
          ? run(STATEMENT('true', true), { limit })
          : run(STATEMENT('l.created_at < CAST(:before AS timestamptz)', true), { before, limit }),
      at: (instant) => run(STATEMENT('l.created_at = CAST(:at AS timestamptz)', false), { at: instant }),
    },
    query.before,
    query.limit,
  );
}
