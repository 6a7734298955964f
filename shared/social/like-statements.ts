// PUT and DELETE /likes/{kind}/{id} as one statement each, prepared, with no transaction around it: every
// round trip cost the web process about 0.25 ms in its socket write alone, and a like made five (BEGIN, the
// thing locked, the write, the count read back, COMMIT). The statement finds the thing, decides in SQL
// what the liker may see (subjectSeenSql: the rule subjectSeenBy decides in code), writes the like row and
// answers the count after it.
//
// The count: the likes_counted trigger moves the thing's counter when the statement ends, after every CTE
// has run, so no CTE can read the new count from the table. The statement locks the thing's row FOR NO
// KEY UPDATE before it writes instead (the lock the trigger's own update takes, which a like held until
// its commit before). Parallel likes of one thing queue on it, and a lock that waited returns the row's
// latest committed version (READ COMMITTED re-reads a locked row), so `likes` is the counter with every
// like committed before, and the answer adds the statement's own change from its RETURNING: 50 likers at
// once answer 1 to 50, each once. The trigger stays the one thing that moves counters, so an account's
// deletion and DELETE /account/data keep moving them. The lock also holds the thing against a deletion
// until the like is written (its deletion's trigger takes its likes; a like written after it would stay).
// The thing is locked before the like row, in the order a thing's deletion takes them; a deletion of the
// liker's own likes (DELETE /account/data) takes them the other way round (rows, then counters), so that one
// running while the same person repeats or takes back a like of a thing can deadlock, and PostgreSQL ends one.
//
// A like that really adds a row also tells the thing's owner, in the same statement (notify()'s block
// test): the likes of one thing within an hour are one notification whose `data.count` grows, found by
// its collapse key through a unique index (migration 20261126000200_notification_collapse: why a lookup
// in a CTE could not do it). Each collapse moves the notification's time and actor to this like's and
// makes it unread again. Taking a like back removes nothing.
import type { Knex } from 'knex';
import { deliverableSql } from '../notifications/notify.js';
import { queryPrepared } from '../platform/db/prepared.js';
import { LIKE_SUBJECTS, type LikeKind } from './like-rules.js';
import { apiColumnType, SUBJECT_TABLES, subjectRowSeenSql } from './subjects.js';

/**
 * What the statement found: `seen` null when no thing has this id; `likes` null when the thing was not
 * held (refused, or deleted while the statement waited for it).
 */
export interface LikeOutcome {
  seen: boolean | null;
  owner_id: string | null;
  likes: number | null;
}

/**
 * $1 the liker, $2 the thing's API id. `thing` judges (locking nothing: a refused like waits for no one);
 * `held` locks the row only of a thing the liker may like; the write reads from `held`, so it runs after
 * the lock is taken.
 */
function likeStatement(kind: LikeKind, liked: boolean): string {
  const subjectKind = LIKE_SUBJECTS[kind];
  const source = SUBJECT_TABLES[subjectKind];
  const write = liked
    ? `INSERT INTO likes (account_id, subject_kind, subject_id) SELECT $1::uuid, '${kind}', held.id FROM held
    ON CONFLICT (account_id, subject_kind, subject_id) DO NOTHING RETURNING 1`
    : `DELETE FROM likes l USING held
    WHERE l.account_id = $1::uuid AND l.subject_kind = '${kind}' AND l.subject_id = held.id RETURNING 1`;
  const told = liked
    ? `,
  told AS (INSERT INTO notifications AS n (account_id, kind, actor_id, subject_kind, subject_id, data, collapse_key)
    SELECT thing.account_id, 'like', $1::uuid, '${subjectKind}', thing.api_id, '{"count": 1}'::jsonb,
      'like:${subjectKind}:' || thing.api_id
    FROM thing WHERE EXISTS (SELECT 1 FROM changed) AND ${deliverableSql('thing.account_id', '$1::uuid')}
    ON CONFLICT (account_id, collapse_key) WHERE collapse_key IS NOT NULL DO UPDATE
    SET data = jsonb_build_object('count', coalesce((n.data->>'count')::int, 1) + 1), actor_id = excluded.actor_id,
      created_at = greatest(n.created_at, excluded.created_at), read_at = NULL)`
    : '';
  return `WITH thing AS (
    SELECT t.id, t.account_id, t.${source.apiColumn}::text AS api_id, ${subjectRowSeenSql('t', '$1::uuid')} AS seen
    FROM ${source.table} t WHERE t.${source.apiColumn} = $2::${apiColumnType(source)}),
  held AS (SELECT t.id, t.likes FROM ${source.table} t
    WHERE t.id = (SELECT id FROM thing WHERE seen AND account_id <> $1::uuid) FOR NO KEY UPDATE OF t),
  changed AS (${write})${told}
  SELECT thing.seen, thing.account_id AS owner_id,
    held.likes ${liked ? '+' : '-'} (SELECT count(*) FROM changed)::int AS likes
  FROM (SELECT 1) AS one LEFT JOIN thing ON true LEFT JOIN held ON true`;
}

// SQL kept: the content-social benchmark (PUT and DELETE /likes/{kind}/{id}, one prepared statement each).
const STATEMENTS = new Map<string, string>();

function statementFor(kind: LikeKind, liked: boolean): { name: string; text: string } {
  const name = `jogatina_like_${liked ? 'put' : 'delete'}_${kind}`;
  let text = STATEMENTS.get(name);
  if (text === undefined) {
    text = likeStatement(kind, liked);
    STATEMENTS.set(name, text);
  }
  return { name, text };
}

/** Likes (`liked`) or stops liking the thing, in one statement; the caller turns the outcome into answers. */
export async function writeLike(
  knex: Knex,
  likerId: string,
  kind: LikeKind,
  apiId: string,
  liked: boolean,
): Promise<LikeOutcome> {
  const { name, text } = statementFor(kind, liked);
  const [row] = (await queryPrepared(knex, name, text, [likerId, apiId])) as unknown as LikeOutcome[];
  return row;
}
