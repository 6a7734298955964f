// POST /comments as one statement per kind of place, prepared, with no transaction around it: every round
// trip cost the web process about 0.25 ms in its socket write alone, and a comment made six (BEGIN, the
// place locked, the cap's use, the insert, the comment read back, COMMIT). The statement finds the place,
// decides in SQL what resolvePlace decides in code (the person lookup and conversationOpenSql for a
// profile, subjectSeenSql for a thing), takes the hourly cap's use only for a place the author may write
// on (so a refused comment uses nothing), writes the comment and answers it with its author.
//
// A thing is locked FOR KEY SHARE while the statement runs (other comments and likes pass): a thing
// deleted meanwhile is not found, and one deleted after waits for the comment, whose deletion trigger then
// takes it. A profile's account is held by the comment's foreign keys.
//
// The comment's notification to the owner of the thing or profile is written by the same statement (never
// to the author themselves, never across a block: notify()'s test), so it commits with the comment; the
// comment's deletion takes it (a trigger, migration 20261126000200_notification_collapse).
import type { Knex } from 'knex';
import { MICROSECONDS } from '../content/cursor-page.js';
import { deliverableSql } from '../notifications/notify.js';
import { relationSql } from '../people/item-visibility.js';
import { personLookup } from '../people/visibility.js';
import { queryPrepared } from '../platform/db/prepared.js';
import { rollingKey, rollingUseSql } from '../platform/rate-limits/rolling-cap.js';
import { apiColumnType, SUBJECT_TABLES, subjectRowSeenSql, type SubjectKind } from '../social/subjects.js';
import { COMMENT_HOURLY_CAP, conversationOpenSql } from './comment-rules.js';
import type { CommentRow, CommentTargetKind } from './rows.js';

/**
 * The place as the statement judged it (all null: nothing has this id), and the comment when one was
 * written (`id` null: refused, or the cap's window was full).
 */
export interface CommentOutcome extends Omit<CommentRow, 'id'> {
  id: string | null;
  target_id: string | null;
  owner_id: string | null;
  api_id: string | null;
  seen: boolean | null;
  open: boolean | null;
}

/** $1 the author, $2 how the place is named: the place's row (target, owner, API id) and its judgement. */
const PROFILE_PLACE = `person AS (${personLookup('$2::text', '$1::uuid')}),
  place AS (SELECT p.id AS target_id, p.id AS owner_id, p.username::text AS api_id,
      (p.id = $1::uuid OR NOT p.person_blocked) AS seen,
      ${conversationOpenSql('p.person_visibility', relationSql('$1::uuid', 'p.id', 'p.person_follows'))} AS open
    FROM person p)`;

const thingPlace = (kind: SubjectKind) => {
  const source = SUBJECT_TABLES[kind];
  return `place AS (SELECT t.id AS target_id, t.account_id AS owner_id, t.${source.apiColumn}::text AS api_id,
      ${subjectRowSeenSql('t', '$1::uuid')} AS seen, true AS open
    FROM ${source.table} t WHERE t.${source.apiColumn} = $2::${apiColumnType(source)}
    FOR KEY SHARE OF t)`;
};

/** How much of a comment its notification carries (the contract's data of kind comment). */
export const NOTIFIED_BODY_CHARACTERS = 140;

/** $3 the body; $4, $5, $6 the cap's key, window and limit. */
function commentStatement(kind: CommentTargetKind): string {
  return `WITH ${kind === 'PROFILE' ? PROFILE_PLACE : thingPlace(kind)},
  ok AS (SELECT target_id, owner_id, api_id FROM place WHERE seen AND open),
  cap AS (${rollingUseSql('$4', '$5', '$6', 'FROM ok')}),
  made AS (INSERT INTO comments (account_id, target_kind, target_id, target_account_id, body)
    SELECT $1::uuid, '${kind}', ok.target_id, ok.owner_id, $3::text FROM ok, cap
    RETURNING id, account_id, body, created_at),
  told AS (INSERT INTO notifications (account_id, kind, actor_id, subject_kind, subject_id, data)
    SELECT ok.owner_id, 'comment', $1::uuid, '${kind}', ok.api_id,
      jsonb_build_object('comment_id', made.id, 'body', left(made.body, ${NOTIFIED_BODY_CHARACTERS}))
    FROM ok, made WHERE ${deliverableSql('ok.owner_id', '$1::uuid')})
  SELECT place.target_id, place.owner_id, place.api_id, place.seen, place.open,
    made.id, made.body, to_char(made.created_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS created_at,
    author.username, author.display_name, author.avatar_key
  FROM (SELECT 1) AS one LEFT JOIN place ON true LEFT JOIN made ON true
  LEFT JOIN LATERAL (SELECT a.username, a.display_name, i.storage_key AS avatar_key
      FROM accounts a LEFT JOIN profiles p ON p.account_id = a.id LEFT JOIN images i ON i.id = p.avatar_image_id
      WHERE a.id = made.account_id) AS author ON true`;
}

const STATEMENTS = new Map<CommentTargetKind, string>();

/** Writes the comment if the place takes it, in one statement; the caller turns the outcome into answers. */
export async function writeComment(
  knex: Knex,
  authorId: string,
  kind: CommentTargetKind,
  id: string,
  body: string,
): Promise<CommentOutcome> {
  let text = STATEMENTS.get(kind);
  if (text === undefined) {
    text = commentStatement(kind);
    STATEMENTS.set(kind, text);
  }
  const [row] = (await queryPrepared(knex, `jogatina_comment_${kind.toLowerCase()}`, text, [
    authorId,
    id,
    body,
    rollingKey(COMMENT_HOURLY_CAP, authorId),
    COMMENT_HOURLY_CAP.windowSeconds,
    COMMENT_HOURLY_CAP.limit,
  ])) as unknown as CommentOutcome[];
  return row;
}
