// One thing people like or comment on (DECISIONS: Likes and comments), found by its kind and the id a client
// names it by (reviews, diary sessions and journeys by uuid; lists and screenshots by public id), with what
// decides who may see it: its owner, its own visibility, moderation's removal, and what the reader is to the
// owner. Who sees it follows the one-thing reads (GET /reviews/{id}): the author always; anyone else only
// while it is not removed, nobody blocks the other, and its visibility allows the reader's relation. A
// journey shows by its own visibility, a diary session by its own.
import type { Knex } from 'knex';
import { notFound, type ApiError } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { canSee, relationTo } from '../people/item-visibility.js';
import { NOBODY } from '../people/visibility.js';
import type { ContentVisibility } from '../content/content-fields.js';

/** What comments name a thing's kind by (DIARY: a play session); PROFILE is a person, not a thing. */
export const SUBJECT_KINDS = ['REVIEW', 'LIST', 'SCREENSHOT', 'DIARY', 'JOURNEY'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

interface SubjectTable {
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
  if (reader.id !== null && reader.id === subject.ownerId) return true;
  if (subject.removed || reader.blocked) return false;
  return canSee(subject.visibility, relationTo(reader.id, subject.ownerId, reader.follows));
}

const statement = (source: SubjectTable, lock: boolean) => `
  SELECT t.id, t.${source.apiColumn}::text AS api_id, t.account_id, t.visibility, t.removed_at IS NOT NULL AS removed,
    ${source.likeable ? 't.likes' : 'NULL::int'} AS likes,
    EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :reader AND f.followee_id = t.account_id) AS follows,
    EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = t.account_id)
      OR (b.blocker_id = t.account_id AND b.blocked_id = :reader)) AS blocked
  FROM ${source.table} t
  WHERE t.${source.apiColumn} = :id${lock ? '\n  FOR KEY SHARE OF t' : ''}`;

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
 * (an id of the wrong shape names none). `lock`: inside a write's transaction, the row is held against
 * deletion until it ends (FOR KEY SHARE: other likes and comments still pass), so nothing is written about
 * a thing deleted meanwhile, where its deletion's trigger could no longer take it away.
 */
export async function findSubject(
  knex: Knex | Knex.Transaction,
  kind: SubjectKind,
  apiId: string,
  readerId: string | null,
  options: { lock?: boolean } = {},
): Promise<FoundSubject | null> {
  const source = SUBJECT_TABLES[kind];
  if (source.apiColumn === 'id' && !isUuid(apiId)) return null;
  const { rows } = await knex.raw<{ rows: SubjectRow[] }>(statement(source, options.lock ?? false), {
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
  knex: Knex | Knex.Transaction,
  kind: SubjectKind,
  apiId: string,
  readerId: string | null,
  options: { lock?: boolean } = {},
): Promise<Subject> {
  const found = await findSubject(knex, kind, apiId, readerId, options);
  if (!found || !subjectSeenBy(found.subject, found.reader)) throw SUBJECT_TABLES[kind].notFound();
  return found.subject;
}
