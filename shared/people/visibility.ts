// What a reader may see of a person, decided in one place. A profile is seen in full by its owner and,
// when the owner's library visibility is PUBLIC, by everyone; FOLLOWERS and PRIVATE profiles show their
// public face only (our reading of "private account": library_visibility other than PUBLIC) except to
// their followers. A block in either direction hides the person entirely: they read as not found.
import type { Knex } from 'knex';

export interface Reader {
  /** The signed-in account or the key's owner; null when nobody is signed in. */
  accountId: string | null;
}

export type LibraryVisibility = 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE';

/**
 * SQL that is true when the account in `column` is not suspended or banned now (an active Suspensão or a
 * Banimento permanente): searches and public counts leave such accounts out.
 */
export const NOT_SUSPENDED = (column: string) => `NOT EXISTS (
  SELECT 1 FROM infractions inf WHERE inf.account_id = ${column}
    AND inf.reason IN ('Suspensão', 'Banimento permanente') AND (inf.expires_at IS NULL OR inf.expires_at > now()))`;

/** Pure: whether the reader sees the whole profile of `ownerId`, given what is known of the two. */
export function seesInFull(reader: Reader, ownerId: string, visibility: LibraryVisibility, follows: boolean): boolean {
  if (reader.accountId === ownerId) return true;
  if (visibility === 'PUBLIC') return true;
  return visibility === 'FOLLOWERS' && follows;
}

/** The owner's library visibility (PUBLIC until the profile says otherwise). */
export async function libraryVisibilityOf(knex: Knex, ownerId: string): Promise<LibraryVisibility> {
  const row = await knex('profiles').where({ account_id: ownerId }).first('library_visibility');
  return (row?.library_visibility as LibraryVisibility | undefined) ?? 'PUBLIC';
}

/** What a reader may see of one person: nothing (blocked either way), the public face, or everything. */
export type ProfileView = 'hidden' | 'public' | 'full';

export async function profileView(knex: Knex, reader: Reader, ownerId: string): Promise<ProfileView> {
  if (reader.accountId === ownerId) return 'full';
  const [visibility, relation] = await Promise.all([
    libraryVisibilityOf(knex, ownerId),
    reader.accountId ? relationOf(knex, reader.accountId, ownerId) : { blocked: false, follows: false },
  ]);
  if (relation.blocked) return 'hidden';
  return seesInFull(reader, ownerId, visibility, relation.follows) ? 'full' : 'public';
}

/** Blocks in either direction and whether the reader follows the owner, in one query. */
async function relationOf(knex: Knex, readerId: string, ownerId: string) {
  const { rows } = await knex.raw<{ rows: Array<{ blocked: boolean; follows: boolean }> }>(
    `SELECT
       EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = :r AND blocked_id = :o) OR (blocker_id = :o AND blocked_id = :r)) AS blocked,
       EXISTS (SELECT 1 FROM follows WHERE follower_id = :r AND followee_id = :o) AS follows`,
    { r: readerId, o: ownerId },
  );
  return rows[0];
}
