// What a reader may see of a person, decided in one place. A block in either direction hides the person
// entirely: they read as not found. A private account (library visibility FOLLOWERS or PRIVATE) shows
// its profile pages (layout, connections) in full to its owner and its approved followers, and its public
// face to everyone else. The library follows its own visibility: PUBLIC to all, FOLLOWERS to followers,
// PRIVATE to the owner alone.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { isUsernameShape } from '../accounts/username-rules.js';
import { queryPrepared } from '../platform/db/prepared.js';
import { canSee, canSeeSql, relationSql, relationTo } from './item-visibility.js';

export interface Reader {
  /** The signed-in account or the key's owner; null when nobody is signed in. */
  accountId: string | null;
}

export type LibraryVisibility = 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE';

/** Pure: whether the reader sees the whole profile of `ownerId`, given what is known of the two. */
export function seesInFull(reader: Reader, ownerId: string, visibility: LibraryVisibility, follows: boolean): boolean {
  // A library's visibility reads as an item's: the same table decides both (shared/people/item-visibility.ts).
  return canSee(visibility, relationTo(reader.accountId, ownerId, follows));
}

/** The owner's library visibility (PUBLIC until the profile says otherwise). */
export async function libraryVisibilityOf(knex: Knex, ownerId: string): Promise<LibraryVisibility> {
  const row = await knex('profiles').where({ account_id: ownerId }).first('library_visibility');
  return (row?.library_visibility as LibraryVisibility | undefined) ?? 'PUBLIC';
}

/** What a reader may see of one person: nothing (blocked either way), the public face, or everything. */
export type ProfileView = 'hidden' | 'public' | 'full';

export interface FoundPerson {
  owner: Account;
  visibility: LibraryVisibility;
  /** A block in either direction between the reader and the person. */
  blocked: boolean;
  /** The reader follows the person. */
  follows: boolean;
}

/** The account id that stands for "nobody is signed in" where a statement needs a reader. */
export const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * SQL of the person lookup: the holder of the name bound at `name` (current, or an alias of the last 30
 * days) with what decides the reader's view of them, the reader bound at `reader` (NOBODY when anonymous).
 * Placeholders are the caller's ($1, :name), so a page's statement can start with it (personLibraryStatement,
 * feedStatement).
 */
export const personLookup = (name: string, reader: string) => `
  SELECT a.*, coalesce(pf.library_visibility, 'PUBLIC') AS person_visibility,
    EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${reader} AND b.blocked_id = a.id)
      OR (b.blocker_id = a.id AND b.blocked_id = ${reader})) AS person_blocked,
    EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${reader} AND f.followee_id = a.id) AS person_follows
  FROM usernames u
  JOIN accounts a ON a.id = u.account_id
  LEFT JOIN profiles pf ON pf.account_id = a.id
  WHERE lower(u.name) = lower(${name}) AND (u.kind = 'current' OR u.expires_at > now())
  LIMIT 1`;

const FIND_PERSON = personLookup('$1', '$2');

/** Whether a name could be anyone's: other names are not found without asking the database. */
export const couldBeUsername = (name: string) => isUsernameShape(name.toLowerCase());

/** The person of a lookup row (personLookup's columns; any others must be taken off first). */
export function foundPerson(row: Record<string, unknown>, readerId: string | null): FoundPerson {
  const { person_visibility: visibility, person_blocked: blocked, person_follows: follows, ...columns } = row;
  const owner = Account.fromJson(columns, { skipValidation: true });
  const own = readerId === owner.id;
  return {
    owner,
    visibility: visibility as LibraryVisibility,
    blocked: !own && (blocked as boolean),
    follows: !own && (follows as boolean),
  };
}

/**
 * SQL over the lookup's row `person`: the reader sees the person's library in full, seesInFull's rule
 * built from the same table (canSeeSql). Only to spare a page nobody will be shown: the answer is still
 * decided by viewsOf.
 */
export function seesLibrarySql(person: string, reader: string): string {
  return canSeeSql(`${person}.person_visibility`, relationSql(reader, `${person}.id`, `${person}.person_follows`));
}

/**
 * The holder of a name with what decides the reader's view of them, in one statement: people routes
 * answer every request with it before reading anything else.
 */
export async function findPerson(knex: Knex, name: string, readerId: string | null): Promise<FoundPerson | null> {
  if (!couldBeUsername(name)) return null;
  // Prepared: every people request starts here, so PostgreSQL plans it once per connection.
  const [row] = await queryPrepared(knex, 'jogatina_find_person', FIND_PERSON, [name, readerId ?? NOBODY]);
  return row ? foundPerson(row, readerId) : null;
}

/** The library view and the profile pages' view of a found person (see the top of this file). */
export function viewsOf(person: FoundPerson, readerId: string | null): { library: ProfileView; pages: ProfileView } {
  if (readerId === person.owner.id) return { library: 'full', pages: 'full' };
  if (person.blocked) return { library: 'hidden', pages: 'hidden' };
  return {
    library: seesInFull({ accountId: readerId }, person.owner.id, person.visibility, person.follows)
      ? 'full'
      : 'public',
    pages: person.visibility === 'PUBLIC' || person.follows ? 'full' : 'public',
  };
}
