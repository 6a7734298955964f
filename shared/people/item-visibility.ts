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

/** SQL: canSee of a visibility and a relation given as SQL expressions, written out from the same table. */
export function canSeeSql(visibility: string, relation: string): string {
  const cases = RELATIONS.map((each) => {
    const allowed = ITEM_VISIBILITIES.filter((candidate) => canSee(candidate, each));
    return `WHEN '${each}' THEN ${visibility} IN (${allowed.map((v) => `'${v}'`).join(', ')})`;
  });
  return `(CASE ${relation} ${cases.join(' ')} ELSE false END)`;
}
