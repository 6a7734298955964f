// Content rows of a person, straight in the database: the people routes only read them, and the routes
// that write them belong to other issues. Each factory takes the owner and the fields a test cares about.
import { randomBytes } from 'node:crypto';
import { claimFirstUsername } from '../../shared/accounts/usernames.js';
import { db } from '../../shared/platform/db/knex.js';
import { signedInClient } from './factories.js';
import type { TestClient } from './http-client.js';

type Fields = Record<string, unknown>;
let nextGame = 1;

async function insert(table: string, row: Fields): Promise<Fields> {
  const [created] = await db()(table).insert(row).returning('*');
  return created;
}

const publicId = () => randomBytes(6).toString('hex');

/** A catalog game; its id is what library entries point at. */
export async function catalogGame(fields: Fields = {}): Promise<{ id: number; name: string; slug: string }> {
  const n = nextGame++;
  return (await insert('games', { slug: `game-${n}-${publicId()}`, name: `Game ${n}`, ...fields })) as never;
}

/** A library entry; game_id defaults to a fresh number (the catalog need not know it). */
export function libraryEntry(accountId: string, fields: Fields = {}) {
  return insert('library_entries', { account_id: accountId, game_id: 100000 + nextGame++, ...fields });
}

/** A closed play session unless `ended_at: null` (then still running). */
export function playSession(accountId: string, fields: Fields = {}) {
  const open = fields.ended_at === null;
  return insert('play_sessions', {
    account_id: accountId,
    game_id: 1,
    started_at: new Date(Date.now() - 3_600_000),
    ended_at: open ? null : new Date(),
    minutes: open ? null : 60,
    ...fields,
  });
}

export function review(accountId: string, fields: Fields = {}) {
  return insert('reviews', { account_id: accountId, game_id: 1, body: 'Good.', ...fields });
}

export function list(accountId: string, fields: Fields = {}) {
  return insert('lists', { account_id: accountId, public_id: publicId(), title: 'A list', ...fields });
}

export function journey(accountId: string, fields: Fields = {}) {
  return insert('journeys', { account_id: accountId, game_id: 1, ...fields });
}

export function screenshot(accountId: string, fields: Fields = {}) {
  return insert('screenshots', {
    account_id: accountId,
    public_id: publicId(),
    game_id: 1,
    image_key: `screenshots/${publicId()}.webp`,
    image_width: 1280,
    image_height: 720,
    ...fields,
  });
}

/** A comment by `authorId` on `ownerId`'s profile, or on one of their things with `target_kind`/`target_id`. */
export function comment(authorId: string, ownerId: string, fields: Fields = {}) {
  return insert('comments', {
    account_id: authorId,
    target_kind: 'PROFILE',
    target_id: ownerId,
    target_account_id: ownerId,
    body: 'Nice profile!',
    ...fields,
  });
}

/** `follower` follows `followee` (directly, as an accepted request would leave it). */
export function follow(followerId: string, followeeId: string) {
  return insert('follows', { follower_id: followerId, followee_id: followeeId });
}

export function block(blockerId: string, blockedId: string) {
  return insert('blocks', { blocker_id: blockerId, blocked_id: blockedId });
}

export type Visibility = 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE';

/** A signed-in person with a username and, when asked, a library visibility other than PUBLIC. */
export async function namedPerson(http: TestClient, username: string, visibility: Visibility = 'PUBLIC') {
  const signed = await signedInClient(http);
  await db().transaction((trx) => claimFirstUsername(trx, signed.account.id, username));
  if (visibility !== 'PUBLIC') {
    await db()('profiles')
      .insert({ account_id: signed.account.id, library_visibility: visibility })
      .onConflict('account_id')
      .merge();
  }
  return signed;
}

/** A list folder of the owner; lists join it through `folder_id: folder.id`. */
export function listFolder(accountId: string, fields: Fields = {}) {
  return insert('list_folders', { account_id: accountId, public_id: publicId(), name: 'A folder', ...fields });
}

/** A person as namedPerson makes them, and a game as catalogGame does. */
export type NamedPerson = Awaited<ReturnType<typeof namedPerson>>;
export type CatalogGame = Awaited<ReturnType<typeof catalogGame>>;

/** The members of a library entry as the owner's library routes answer it. */
export const ENTRY_KEYS = [
  'game_id',
  'game',
  'status',
  'playing',
  'backlog',
  'wishlist',
  'liked',
  'ignored',
  'rating',
  'platform_id',
  'finished_at',
  'created_at',
  'updated_at',
];
