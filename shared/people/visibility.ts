// What a reader may see of a person, decided in one place. A profile is seen in full by its owner and,
// when the owner's library visibility is PUBLIC, by everyone; FOLLOWERS and PRIVATE profiles show their
// public face only (our reading of "private account": library_visibility other than PUBLIC). Follows and
// blocks arrive with the social graph and are decided here too.
import type { Knex } from 'knex';

export interface Reader {
  /** The signed-in account or the key's owner; null when nobody is signed in. */
  accountId: string | null;
}

export type LibraryVisibility = 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE';

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

/** Whether the reader sees the whole profile; follows count once the social graph records them. */
export async function readerSeesInFull(knex: Knex, reader: Reader, ownerId: string): Promise<boolean> {
  if (reader.accountId === ownerId) return true;
  const visibility = await libraryVisibilityOf(knex, ownerId);
  return seesInFull(reader, ownerId, visibility, false);
}
