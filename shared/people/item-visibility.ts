// Who may see one item (a list, review, play session, journey or screenshot) by its own `visibility`,
// decided in one place: as a pure function for code, and as a SQL condition for counts and listings, both
// derived from the same table so they cannot drift apart. The person's library visibility and blocks are
// decided before this (shared/people/visibility.ts); here the reader is already allowed to see the person.
import type { Knex } from 'knex';

export const ITEM_VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;
export type ItemVisibility = (typeof ITEM_VISIBILITIES)[number];

/** What the reader is to the item's author: themself, a follower, or anyone else (anonymous included). */
export type ReaderRelation = 'owner' | 'follower' | 'other';

const SEEN_BY: Record<ItemVisibility, ReadonlySet<ReaderRelation>> = {
  PUBLIC: new Set(['owner', 'follower', 'other']),
  FOLLOWERS: new Set(['owner', 'follower']),
  PRIVATE: new Set(['owner']),
};

/** Pure: whether a reader with this relation to the author sees an item of this visibility. */
export function canSee(visibility: ItemVisibility, relation: ReaderRelation): boolean {
  return SEEN_BY[visibility]?.has(relation) ?? false;
}

export interface SqlCondition {
  sql: string;
  bindings: Knex.Value[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * SQL true for the rows of table alias `alias` this reader may see (bindings are positional `?`). A thing
 * moderation removed counts and lists nowhere, for its author too: the author meets it only where it is
 * read by itself (with `removed: true`).
 */
export function visibleItems(alias: string, relation: ReaderRelation): SqlCondition {
  // The alias is spliced into the text, so only plain identifiers are taken.
  if (!IDENTIFIER.test(alias)) throw new Error(`not a table alias: ${alias}`);
  const allowed = ITEM_VISIBILITIES.filter((visibility) => canSee(visibility, relation));
  return {
    sql: `(${alias}.visibility IN (${allowed.map(() => '?').join(', ')}) AND ${alias}.removed_at IS NULL)`,
    bindings: allowed,
  };
}

/** One thing a person wrote, as far as who may see it goes. */
export interface SeenThing {
  authorId: string;
  visibility: ItemVisibility;
  /** Moderation removed it. */
  removed: boolean;
}

/** What the reader is to the thing's author. */
export interface ThingReader {
  /** Null: nobody is signed in. */
  id: string | null;
  /** The reader follows the author. */
  follows: boolean;
  /** A block in either direction between the reader and the author. */
  blocked: boolean;
}

/**
 * Pure: whether one reader sees one thing read by itself (a review, list, capture, session or journey):
 * the author always (removed or not); anyone else only while it is not removed, nobody blocks the other,
 * and its visibility allows the reader's relation to the author.
 */
export function thingSeenBy(thing: SeenThing, reader: ThingReader): boolean {
  if (reader.id !== null && reader.id === thing.authorId) return true;
  if (thing.removed || reader.blocked) return false;
  return canSee(thing.visibility, relationTo(reader.id, thing.authorId, reader.follows));
}

/**
 * Whether the answer of one thing may be kept by the reader's browser (to revalidate by its ETag): only a
 * PUBLIC thing read by nobody signed in. Any other answer depends on who asks, and goes out `private, no-store`.
 */
export function answerKeepable(visibility: ItemVisibility, readerId: string | null): boolean {
  return visibility === 'PUBLIC' && readerId === null;
}

/** The reader's relation to the owner, given whether the reader follows them (null reader: anonymous). */
export function relationTo(readerId: string | null, ownerId: string, follows: boolean): ReaderRelation {
  if (readerId === ownerId) return 'owner';
  return follows ? 'follower' : 'other';
}

const RELATIONS: readonly ReaderRelation[] = ['owner', 'follower', 'other'];

/** SQL: the reader's relation to the owner as relationTo names it, from SQL expressions of the three. */
export function relationSql(reader: string, owner: string, follows: string): string {
  return `(CASE WHEN ${owner} = ${reader} THEN 'owner' WHEN ${follows} THEN 'follower' ELSE 'other' END)`;
}

/** SQL: the reader follows the owner (both SQL expressions of account ids). */
export const followsSql = (reader: string, owner: string) =>
  `EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${reader} AND f.followee_id = ${owner})`;

/** SQL: a block in either direction between the reader and the owner. */
export const blockedSql = (reader: string, owner: string) =>
  `EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${reader} AND b.blocked_id = ${owner})
      OR (b.blocker_id = ${owner} AND b.blocked_id = ${reader}))`;

/** SQL: canSee of a visibility and a relation given as SQL expressions, written out from the same table. */
export function canSeeSql(visibility: string, relation: string): string {
  const cases = RELATIONS.map((each) => {
    const allowed = ITEM_VISIBILITIES.filter((candidate) => canSee(candidate, each));
    return `WHEN '${each}' THEN ${visibility} IN (${allowed.map((v) => `'${v}'`).join(', ')})`;
  });
  return `(CASE ${relation} ${cases.join(' ')} ELSE false END)`;
}
