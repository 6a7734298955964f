// One thing people like or comment on (DECISIONS: Likes and comments), found by its kind and the id a client
// names it by (reviews, diary sessions and journeys by uuid; lists and screenshots by public id), with what
// decides who may see it: its owner, its own visibility, moderation's removal, and what the reader is to the
// owner. Who sees it follows the one-thing reads (GET /reviews/{id}): the author always; anyone else only
// while it is not removed, nobody blocks the other, and its visibility allows the reader's relation. A
// journey shows by its own visibility, a diary session by its own. The rule is written twice from the same
// parts: subjectSeenBy for code, subjectSeenSql for the one-statement writes (likes, comments).
import type { Knex } from 'knex';
import { notFound, type ApiError } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { blockedSql, canSeeSql, followsSql, relationSql, thingSeenBy } from '../people/item-visibility.js';
import { NOBODY } from '../people/visibility.js';
import type { ContentVisibility } from '../content/content-fields.js';
import { COMMENTED_KINDS, type CommentedKind } from '../content/comment-count.js';

/** What comments name a thing's kind by (DIARY: a play session); PROFILE is a person, not a thing. */
export const SUBJECT_KINDS = COMMENTED_KINDS;
export type SubjectKind = CommentedKind;

export interface SubjectTable {
  table: string;
  /** The column a client names it by. */
  apiColumn: 'id' | 'public_id';
  /** Whether it carries a `likes` counter (diary sessions are not likeable). */
  likeable: boolean;
  notFound: () => ApiError;
}

export const SUBJECT_TABLES: Record<SubjectKind, SubjectTable> = {
  REVIEW: {
    table: 'reviews',
    apiColumn: 'id',
    likeable: true,
    notFound: () => notFound('No review you may see has this id.', 'review_not_found'),
  },
  LIST: {
    table: 'lists',
    apiColumn: 'public_id',
    likeable: true,
    notFound: () => notFound('No list you may see has this id.', 'list_not_found'),
  },
  SCREENSHOT: {
    table: 'screenshots',
    apiColumn: 'public_id',
    likeable: true,
    notFound: () => notFound('No screenshot you may see has this id.', 'screenshot_not_found'),
  },
  DIARY: {
    table: 'play_sessions',
    apiColumn: 'id',
    likeable: false,
    notFound: () => notFound('No session you may see has this id.', 'session_not_found'),
  },
  JOURNEY: {
    table: 'journeys',
    apiColumn: 'id',
    likeable: true,
    notFound: () => notFound('No journey you may see has this id.', 'journey_not_found'),
  },
};

export interface Subject {
  kind: SubjectKind;
  /** The row's id (what likes and comments store). */
  id: string;
  /** The id clients name it by. */
  apiId: string;
  ownerId: string;
  visibility: ContentVisibility;
  removed: boolean;
  /** Its likes counter; null for what cannot be liked. */
  likes: number | null;
}

/** What the reader is to the thing's owner. */
export interface SubjectReader {
  /** Null: nobody is signed in. */
  id: string | null;
  follows: boolean;
  /** A block in either direction between the reader and the owner. */
  blocked: boolean;
}

export interface FoundSubject {
  subject: Subject;
  reader: SubjectReader;
}

/** Pure: whether the reader may see the thing (see the top of this file). */
export function subjectSeenBy(
  subject: Pick<Subject, 'ownerId' | 'visibility' | 'removed'>,
  reader: SubjectReader,
): boolean {
  return thingSeenBy({ authorId: subject.ownerId, visibility: subject.visibility, removed: subject.removed }, reader);
}

/** SQL expressions of what subjectSeenBy decides on. `reader` is NOBODY when nobody is signed in. */
export interface SubjectSeenTerms {
  reader: string;
  owner: string;
  visibility: string;
  removed: string;
  follows: string;
  blocked: string;
}

/** SQL: subjectSeenBy's rule, from the same parts (the visibility table of canSeeSql). */
export function subjectSeenSql(terms: SubjectSeenTerms): string {
  const { reader, owner, visibility, removed, follows, blocked } = terms;
  const relation = relationSql(reader, owner, follows);
  return `(${owner} = ${reader} OR (NOT ${removed} AND NOT ${blocked} AND ${canSeeSql(visibility, relation)}))`;
}

/** SQL: subjectSeenBy for the reader `reader` and the thing's row at table alias `alias`. */
export const subjectRowSeenSql = (alias: string, reader: string) =>
  subjectSeenSql({
    reader,
    owner: `${alias}.account_id`,
    visibility: `${alias}.visibility`,
    removed: `${alias}.removed_at IS NOT NULL`,
    follows: followsSql(reader, `${alias}.account_id`),
    blocked: blockedSql(reader, `${alias}.account_id`),
  });

/** The SQL type of the column a client names a thing by, to cast a statement's parameter to. */
export const apiColumnType = (source: SubjectTable) => (source.apiColumn === 'id' ? 'uuid' : 'text');

/** Whether `apiId` could name a thing of this source: an id of the wrong shape names none. */
export const couldNameSubject = (source: SubjectTable, apiId: string) => source.apiColumn !== 'id' || isUuid(apiId);

const statement = (source: SubjectTable) => `
  SELECT t.id, t.${source.apiColumn}::text AS api_id, t.account_id, t.visibility, t.removed_at IS NOT NULL AS removed,
    ${source.likeable ? 't.likes' : 'NULL::int'} AS likes,
    ${followsSql(':reader', 't.account_id')} AS follows,
    ${blockedSql(':reader', 't.account_id')} AS blocked
  FROM ${source.table} t
  WHERE t.${source.apiColumn} = :id`;

interface SubjectRow {
  id: string;
  api_id: string;
  account_id: string;
  visibility: ContentVisibility;
  removed: boolean;
  likes: number | null;
  follows: boolean;
  blocked: boolean;
}

/**
 * The thing of `kind` named `apiId`, as `readerId` (null: anonymous) finds it, or null when there is none
 * (an id of the wrong shape names none).
 */
export async function findSubject(
  knex: Knex,
  kind: SubjectKind,
  apiId: string,
  readerId: string | null,
): Promise<FoundSubject | null> {
  const source = SUBJECT_TABLES[kind];
  if (!couldNameSubject(source, apiId)) return null;
  const { rows } = await knex.raw<{ rows: SubjectRow[] }>(statement(source), {
    id: apiId,
    reader: readerId ?? NOBODY,
  });
  const row = rows[0];
  if (!row) return null;
  const own = readerId === row.account_id;
  return {
    subject: {
      kind,
      id: row.id,
      apiId: row.api_id,
      ownerId: row.account_id,
      visibility: row.visibility,
      removed: row.removed,
      likes: row.likes,
    },
    reader: { id: readerId, follows: !own && row.follows, blocked: !own && row.blocked },
  };
}

/** The thing if `readerId` may see it, else its kind's 404 (as for no such thing). */
export async function seenSubject(
  knex: Knex,
  kind: SubjectKind,
  apiId: string,
  readerId: string | null,
): Promise<Subject> {
  const found = await findSubject(knex, kind, apiId, readerId);
  if (!found || !subjectSeenBy(found.subject, found.reader)) throw SUBJECT_TABLES[kind].notFound();
  return found.subject;
}
