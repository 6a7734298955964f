// The world of the visibility matrix (issue 8): one cast of people and one body of content that each
// people-visibility-*.test.ts file builds once, in a `before` hook after useCleanDatabase's truncation
// (which runs once per describe, not per test), and then reads through every people route as each reader.
//
// Three owners hold the same content and differ only in their library visibility (PUBLIC, FOLLOWERS,
// PRIVATE). Each owns one item of every visibility in every per-item table (label pub, fol, priv), a
// still-running PUBLIC session (`session:live`), a moderator-removed PUBLIC capture (`screenshot:removed`),
// two library entries (`entry:loved`, `entry:wish`), one copy, an activity item for each of those, a
// published layout, a mineral balance, a verification and a profile conversation with a comment by each
// other person (`comment:<who>`, plus `comment:removed`). The readers of an owner:
//   owner      the owner themself
//   follower   follows all three owners (and the hub and the suspended person)
//   requester  asked to follow the FOLLOWERS and PRIVATE owners, not yet accepted: a stranger still
//   stranger   signed in, no relation
//   anonymous  nobody signed in
//   blocked    every owner blocked them
//   blocker    they blocked every owner
//   suspended  under an active Suspensão, with PUBLIC content of their own
//   staff      a moderator, otherwise a stranger
// The hub is a PUBLIC third party everyone follows; it follows the follower, blocked and blocker, and its
// conversation has comments by the follower, stranger, blocked, blocker and suspended: what the readers see
// of someone else's connections and conversation. Everyone keeps the world's game loved (rated 90) in a
// PUBLIC library (owners by their own visibility), which is what discovery's similar taste compares.
import { db } from '../../shared/platform/db/knex.js';
import { defaultLayout } from '../../shared/layout/default-layout.js';
import type { TestClient } from './http-client.js';
import * as people from './people.js';
import { SiteClient } from './site-client.js';

export const OWNER_VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;
export type OwnerVisibility = (typeof OWNER_VISIBILITIES)[number];

export const READERS = [
  'owner',
  'follower',
  'requester',
  'stranger',
  'anonymous',
  'blocked',
  'blocker',
  'suspended',
  'staff',
] as const;
export type ReaderName = (typeof READERS)[number];
/** The readers who are let in (a block either way is 404 before anything else). */
export const ADMITTED = ['owner', 'follower', 'requester', 'stranger', 'anonymous', 'suspended', 'staff'] as const;
export type AdmittedReader = (typeof ADMITTED)[number];

/** Everyone with an account, by role. */
export type Role = OwnerVisibility | Exclude<ReaderName, 'owner' | 'anonymous'> | 'hub';

export const NAMES: Record<Role, string> = {
  PUBLIC: 'vis_owner_pub',
  FOLLOWERS: 'vis_owner_fol',
  PRIVATE: 'vis_owner_priv',
  follower: 'vis_follower',
  requester: 'vis_requester',
  stranger: 'vis_stranger',
  blocked: 'vis_blocked',
  blocker: 'vis_blocker',
  suspended: 'vis_suspended',
  staff: 'vis_staff',
  hub: 'vis_hub',
};
export const OTHERS = ['follower', 'requester', 'stranger', 'blocked', 'blocker', 'suspended', 'staff', 'hub'] as const;

/** Item labels by the item's own visibility. */
export const ITEM_LABELS = { PUBLIC: 'pub', FOLLOWERS: 'fol', PRIVATE: 'priv' } as const;
export type ItemLabel = (typeof ITEM_LABELS)[keyof typeof ITEM_LABELS];

/** Folders of each owner's lists: list:pub in Open, list:priv in Secret, list:fol in none, Empty empty. */
export const FOLDER_OF: Record<ItemLabel, string | null> = { pub: 'Open', fol: null, priv: 'Secret' };
export const FOLDERS = ['Empty', 'Open', 'Secret'];

/** What each admitted reader sees of an owner's items by the item's own visibility, whatever the library's. */
export const SEES_ITEMS: Record<AdmittedReader, ItemLabel[]> = {
  owner: ['pub', 'fol', 'priv'],
  follower: ['pub', 'fol'],
  // An unanswered request is not a follow.
  requester: ['pub'],
  stranger: ['pub'],
  anonymous: ['pub'],
  suspended: ['pub'],
  // Staff read content as strangers do: no route gives them more.
  staff: ['pub'],
};

/** Who sees an owner's library (and the library counts), by its visibility. */
export const SEES_LIBRARY: Record<OwnerVisibility, AdmittedReader[]> = {
  PUBLIC: ['owner', 'follower', 'requester', 'stranger', 'anonymous', 'suspended', 'staff'],
  FOLLOWERS: ['owner', 'follower'],
  PRIVATE: ['owner'],
};

/** Who sees an owner's profile pages in full (published layout, connections, conversation). */
export const SEES_PAGES: Record<OwnerVisibility, AdmittedReader[]> = {
  PUBLIC: ['owner', 'follower', 'requester', 'stranger', 'anonymous', 'suspended', 'staff'],
  FOLLOWERS: ['owner', 'follower'],
  PRIVATE: ['owner', 'follower'],
};

/** Everyone who reads, by role: the people of the world and nobody signed in. */
export type ReadingRole = Role | 'anonymous';
export const READING_ROLES: ReadingRole[] = [...OWNER_VISIBILITIES, ...OTHERS, 'anonymous'];

/** What a person is to an owner, as a reader of the matrix (another owner and the hub are strangers). */
export function readerOf(role: ReadingRole, owner: OwnerVisibility): ReaderName {
  if (role === owner) return 'owner';
  if (role === 'PUBLIC' || role === 'FOLLOWERS' || role === 'PRIVATE' || role === 'hub') return 'stranger';
  return role;
}

export interface Person {
  id: string;
  username: string;
  site: SiteClient;
}

export interface World {
  /** The year every item of the world falls in (the current UTC year). */
  year: number;
  game: { id: number; slug: string };
  person: Record<Role, Person>;
  /** The client of `reader` reading `owner`'s profile (anonymous: a client with no session). */
  reader(reader: ReaderName, owner: OwnerVisibility): SiteClient;
  /** The client of a person of the world, or of nobody. */
  client(role: ReadingRole): SiteClient;
  /** The label of an id the world made ('review:pub', 'comment:staff', ...), or `?<id>` for a stranger one. */
  label(id: string): string;
  /** Activity items as `<username> <label>`, to compare across authors. */
  activityLabels(items: Array<{ id: string; username: string }>): string[];
}

/** Where the world's items sit in time: this year, a little before now, one second apart. */
function clock() {
  const now = Date.now();
  const year = new Date(now).getUTCFullYear();
  const base = Math.max(Date.UTC(year, 0, 1, 0, 1), now - 2 * 3_600_000);
  let tick = 0;
  return { year, next: () => new Date(base + 1000 * tick++) };
}

export async function buildWorld(http: TestClient): Promise<World> {
  const { year, next } = clock();
  const labels = new Map<string, string>();
  const game = await people.catalogGame({ name: 'Matrix Quest', slug: 'matrix-quest' });

  const person = {} as Record<Role, Person>;
  for (const role of [...OWNER_VISIBILITIES, ...OTHERS]) {
    const visibility = role === 'PUBLIC' || role === 'FOLLOWERS' || role === 'PRIVATE' ? role : 'PUBLIC';
    const signed = await people.namedPerson(http, NAMES[role], visibility);
    person[role] = { id: signed.account.id, username: NAMES[role], site: signed.site };
  }
  const id = (role: Role) => person[role].id;
  await db()('accounts')
    .where({ id: id('staff') })
    .update({ role: 'moderator' });
  await db()('infractions').insert({
    account_id: id('suspended'),
    reason: 'Suspensão',
    expires_at: new Date(Date.now() + 7 * 86_400_000),
  });

  // Everyone keeps the world's game, loved.
  for (const role of OTHERS) await people.libraryEntry(id(role), { game_id: game.id, liked: true, rating: 90 });

  /** An activity item about `subject`, labelled like it. */
  async function activity(accountId: string, kind: string, subjectId: string, label: string, gameId = game.id) {
    const [row] = await db()('activity_items')
      .insert({ account_id: accountId, kind, subject_id: subjectId, game_id: gameId, created_at: next() })
      .returning('id');
    labels.set(subjectId, label);
    labels.set(row.id as string, label);
  }

  /** A closed session (a live one with `live`), its activity labelled `session:<label>`. */
  async function session(accountId: string, label: string, visibility: string, live = false) {
    const started = next();
    const row = await people.playSession(accountId, {
      game_id: game.id,
      visibility,
      started_at: started,
      ...(live ? { ended_at: null } : { ended_at: new Date(started.getTime() + 30 * 60_000), minutes: 30 }),
    });
    await activity(accountId, 'session', row.id as string, `session:${label}`);
  }

  for (const owner of OWNER_VISIBILITIES) {
    const ownerId = id(owner);
    const loved = await people.libraryEntry(ownerId, {
      game_id: game.id,
      status: 'COMPLETED',
      liked: true,
      rating: 90,
    });
    await activity(ownerId, 'entry', loved.id as string, 'entry:loved');
    const wish = await people.libraryEntry(ownerId, { status: 'WISHLIST' });
    // The one item on another game: the game's activity leaves it out.
    await activity(ownerId, 'entry', wish.id as string, 'entry:wish', wish.game_id as number);
    await db()('library_copies').insert({ account_id: ownerId, game_id: game.id, platform_id: 6 });

    const folders = new Map<string, string>();
    for (const name of FOLDERS) folders.set(name, (await people.listFolder(ownerId, { name })).id as string);
    for (const [visibility, label] of Object.entries(ITEM_LABELS)) {
      const at = () => ({ created_at: next(), visibility });
      const folder = FOLDER_OF[label];
      const list = await people.list(ownerId, {
        ...at(),
        title: `vis list ${label}`,
        folder_id: folder ? folders.get(folder) : null,
      });
      await activity(ownerId, 'list', list.id as string, `list:${label}`);
      labels.set(list.public_id as string, `list:${label}`);
      const review = await people.review(ownerId, { ...at(), game_id: game.id, body: `vis review ${label}` });
      await activity(ownerId, 'review', review.id as string, `review:${label}`);
      const journey = await people.journey(ownerId, { ...at(), game_id: game.id, title: `vis run ${label}` });
      await activity(ownerId, 'journey', journey.id as string, `journey:${label}`);
      const shot = await people.screenshot(ownerId, { ...at(), game_id: game.id, contains_spoilers: label === 'fol' });
      await activity(ownerId, 'screenshot', shot.id as string, `screenshot:${label}`);
      labels.set(shot.public_id as string, `screenshot:${label}`);
      await session(ownerId, label, visibility);
    }
    await session(ownerId, 'live', 'PUBLIC', true);
    const removed = await people.screenshot(ownerId, { created_at: next(), game_id: game.id, removed_at: new Date() });
    await activity(ownerId, 'screenshot', removed.id as string, 'screenshot:removed');
    labels.set(removed.public_id as string, 'screenshot:removed');

    // The owner's posts above earned minerals already (the ledger's triggers): the balance is set over them.
    await db()('mineral_balances')
      .insert({ account_id: ownerId, balance: 30, level: 3 })
      .onConflict('account_id')
      .merge();
    await db()('verifications').insert({ account_id: ownerId, vouched_by: id('staff') });
    const published = await person[owner].site.put('/api/v1/profile/layout', { layout: defaultLayout(), version: 0 });
    if (published.status !== 200) throw new Error(`layout: ${published.status} ${published.text}`);
    await person[owner].site.post('/api/v1/profile/layout/publish', { version: 1 });

    // The conversation is written before the blocks, as it would have been.
    for (const author of ['follower', 'stranger', 'blocked', 'blocker', 'suspended', 'staff'] as const) {
      const row = await people.comment(id(author), ownerId, { body: `by ${author}`, created_at: next() });
      labels.set(row.id as string, `comment:${author}`);
    }
    const removedComment = await people.comment(id('stranger'), ownerId, { body: 'gone', removed_at: new Date() });
    labels.set(removedComment.id as string, 'comment:removed');

    await people.follow(id('follower'), ownerId);
    if (owner !== 'PUBLIC') {
      await db()('follow_requests').insert({ requester_id: id('requester'), target_id: ownerId });
    }
    await people.follow(ownerId, id('hub'));
    await people.block(ownerId, id('blocked'));
    await people.block(id('blocker'), ownerId);
  }

  // The suspended person's PUBLIC content, each with its activity: none of it shows where suspension counts.
  const suspendedId = id('suspended');
  const review = await people.review(suspendedId, { created_at: next(), game_id: game.id, body: 'vis review sus' });
  await activity(suspendedId, 'review', review.id as string, 'review:sus');
  const list = await people.list(suspendedId, { created_at: next(), title: 'vis list sus' });
  await activity(suspendedId, 'list', list.id as string, 'list:sus');
  labels.set(list.public_id as string, 'list:sus');
  const shot = await people.screenshot(suspendedId, { created_at: next(), game_id: game.id });
  await activity(suspendedId, 'screenshot', shot.id as string, 'screenshot:sus');
  labels.set(shot.public_id as string, 'screenshot:sus');
  await session(suspendedId, 'sus', 'PUBLIC');
  await session(id('hub'), 'hub', 'PUBLIC');

  // The hub: everyone follows it; it follows three of them; five of them talk on its profile.
  // (The owners follow the hub already.)
  for (const role of ['follower', 'requester', 'stranger', 'blocked', 'blocker', 'suspended', 'staff'] as const) {
    await people.follow(id(role), id('hub'));
  }
  await people.follow(id('follower'), suspendedId);
  for (const role of ['follower', 'blocked', 'blocker'] as const) await people.follow(id('hub'), id(role));
  for (const author of ['follower', 'stranger', 'blocked', 'blocker', 'suspended'] as const) {
    const row = await people.comment(id(author), id('hub'), { body: `by ${author}`, created_at: next() });
    labels.set(row.id as string, `comment:${author}`);
  }
  await db()('mineral_balances').insert({ account_id: id('follower'), balance: 5, level: 1 });

  const anonymous = new SiteClient(http);
  const label = (key: string) => labels.get(key) ?? `?${key}`;
  return {
    year,
    game,
    person,
    reader: (reader, owner) => {
      if (reader === 'anonymous') return anonymous;
      return person[reader === 'owner' ? owner : reader].site;
    },
    client: (role) => (role === 'anonymous' ? anonymous : person[role].site),
    label,
    activityLabels: (items) => items.map((item) => `${item.username} ${label(item.id)}`).sort(),
  };
}

/** The labels of `ids`, sorted: what a cell compares. */
export function labelsOf(world: World, ids: string[]): string[] {
  return ids.map((key) => world.label(key)).sort();
}
