// The reads of comments (DECISIONS: Likes and comments): where a comment is, resolved for one reader, and a
// conversation newest first by cursor. A conversation shows what its reader may see, by the rule of the
// profile conversation of GET /profiles/{u}/social (shared/people/profile-social.ts): nothing moderation
// removed, no author blocked either way by the reader or blocked by the owner of the profile or thing, and
// no suspended author unless the reader is staff or that author.
import type { Knex } from 'knex';
import { cursorPage, MICROSECONDS, type CursorPage } from '../content/cursor-page.js';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { relationTo } from '../people/item-visibility.js';
import { findPerson, NOBODY } from '../people/visibility.js';
import { seenSubject } from '../social/subjects.js';
import { conversationOpen, followersOnly, noSuchPerson } from './comment-rules.js';
import type { CommentRow, CommentTargetKind, ResolvedPlace } from './rows.js';

/**
 * The profile or thing `id` names, if `readerId` may see it: a person hidden by a block either way, or a
 * thing the reader may not see, is 404 as none is; a private account's conversation is 403
 * `followers_only` to those who do not follow it. POST /comments decides the same in its statement
 * (comment-statements.ts).
 */
export async function resolvePlace(
  knex: Knex,
  kind: CommentTargetKind,
  id: string,
  readerId: string | null,
): Promise<ResolvedPlace> {
  if (kind === 'PROFILE') {
    const person = await findPerson(knex, id, readerId);
    if (!person || person.blocked) throw noSuchPerson();
    const relation = relationTo(readerId, person.owner.id, person.follows);
    if (!conversationOpen(person.visibility, relation)) throw followersOnly();
    return { kind, targetId: person.owner.id, ownerId: person.owner.id, apiId: person.owner.username! };
  }
  const subject = await seenSubject(knex, kind, id, readerId);
  return { kind, targetId: subject.id, ownerId: subject.ownerId, apiId: subject.apiId };
}

const COLUMNS = `c.id, c.body, to_char(c.created_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS created_at,
    a.username, a.display_name, i.storage_key AS avatar_key
  FROM comments c
  JOIN accounts a ON a.id = c.account_id
  LEFT JOIN profiles p ON p.account_id = a.id
  LEFT JOIN images i ON i.id = p.avatar_image_id`;

const CONVERSATION = (range: string, limit: boolean) => `
  SELECT ${COLUMNS}
  WHERE c.target_kind = :kind AND c.target_id = :target AND c.removed_at IS NULL AND ${range}
    AND NOT EXISTS (SELECT 1 FROM blocks b
          WHERE (b.blocker_id IN (:reader, c.target_account_id) AND b.blocked_id = c.account_id)
             OR (b.blocker_id = c.account_id AND b.blocked_id = :reader))
    AND (:staff OR c.account_id = :reader OR ${NOT_SUSPENDED('c.account_id')})
  ORDER BY c.created_at DESC, c.id DESC${limit ? '\n  LIMIT :limit' : ''}`;

export interface CommentReader {
  id: string | null;
  staff: boolean;
}

/** The conversation of a resolved place as `reader` sees it, newest first (DECISIONS: Cursor reads). */
export async function listComments(
  knex: Knex,
  reader: CommentReader,
  place: ResolvedPlace,
  query: { before?: string; limit: number },
): Promise<CursorPage<CommentRow>> {
  const base = { kind: place.kind, target: place.targetId, reader: reader.id ?? NOBODY, staff: reader.staff };
  const run = async (sql: string, bindings: Record<string, Knex.Value>) =>
    (await knex.raw<{ rows: CommentRow[] }>(sql, { ...base, ...bindings })).rows;
  return cursorPage<CommentRow>(
    {
      before: (before, limit) =>
        before === undefined
          ? run(CONVERSATION('true', true), { limit })
          : run(CONVERSATION('c.created_at < CAST(:before AS timestamptz)', true), { before, limit }),
      at: (instant) => run(CONVERSATION('c.created_at = CAST(:at AS timestamptz)', false), { at: instant }),
    },
    query.before,
    query.limit,
  );
}
