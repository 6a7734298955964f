// The visibility matrix (issue 8), part three: what crosses people. The activity feed (whole, by profile,
// and a game's with its totals), discovery, connections (an owner's and a third party's) and a third
// party's conversation, as every person of the world and an anonymous reader see them. The world:
// test/helpers/visibility-world.ts; each `it` is one cell.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { useTestApp } from '../helpers/test-app.js';
import {
  ADMITTED,
  buildWorld,
  NAMES,
  OWNER_VISIBILITIES,
  READING_ROLES,
  readerOf,
  SEES_ITEMS,
  SEES_LIBRARY,
  SEES_PAGES,
  type OwnerVisibility,
  type ReadingRole,
  type Role,
  type World,
} from '../helpers/visibility-world.js';

const KINDS = ['list', 'review', 'journey', 'screenshot', 'session'];

/** An owner's activity as `role` sees it, from the matrix's tables (nothing across a block). */
function ownerFeed(role: ReadingRole, owner: OwnerVisibility): string[] {
  const reader = readerOf(role, owner);
  if (reader === 'blocked' || reader === 'blocker') return [];
  const name = NAMES[owner];
  const items = KINDS.flatMap((kind) => SEES_ITEMS[reader].map((label) => `${name} ${kind}:${label}`));
  items.push(`${name} session:live`);
  if (SEES_LIBRARY[owner].includes(reader)) items.push(`${name} entry:loved`, `${name} entry:wish`);
  return items.sort();
}

/** The suspended person's items: the shared feeds show them to that person alone. */
const SUSPENDED_OWN = ['review:sus', 'list:sus', 'screenshot:sus', 'session:sus'].map((l) => `${NAMES.suspended} ${l}`);

/** The whole feed: the owners' visible items and the hub's session; the suspended person's only to them. */
const feedOf = (role: ReadingRole) =>
  [
    ...OWNER_VISIBILITIES.flatMap((owner) => ownerFeed(role, owner)),
    `${NAMES.hub} session:hub`,
    ...(role === 'suspended' ? SUSPENDED_OWN : []),
  ].sort();

const names = (roles: Role[]) => roles.map((role) => NAMES[role]).sort();

/** Discovery, by reader: similar taste (everyone loves the game) and friends playing (followed, playing). */
const DISCOVERY: Record<ReadingRole, { similar: Role[]; playing: Role[] }> = {
  PUBLIC: { similar: ['follower', 'requester', 'stranger', 'staff', 'hub'], playing: ['hub'] },
  // Another owner's FOLLOWERS or PRIVATE library is not theirs to compare with.
  FOLLOWERS: { similar: ['PUBLIC', 'follower', 'requester', 'stranger', 'staff', 'hub'], playing: ['hub'] },
  PRIVATE: { similar: ['PUBLIC', 'follower', 'requester', 'stranger', 'staff', 'hub'], playing: ['hub'] },
  // The follower follows the suspended person too, who plays: suspended people never appear.
  follower: {
    similar: ['PUBLIC', 'FOLLOWERS', 'requester', 'stranger', 'blocked', 'blocker', 'staff', 'hub'],
    playing: ['PUBLIC', 'FOLLOWERS', 'PRIVATE', 'hub'],
  },
  // A request waiting at the FOLLOWERS owner does not open their library.
  requester: { similar: ['PUBLIC', 'follower', 'stranger', 'blocked', 'blocker', 'staff', 'hub'], playing: ['hub'] },
  stranger: {
    similar: ['PUBLIC', 'follower', 'requester', 'blocked', 'blocker', 'staff', 'hub'],
    playing: ['hub'],
  },
  blocked: { similar: ['follower', 'requester', 'stranger', 'blocker', 'staff', 'hub'], playing: ['hub'] },
  blocker: { similar: ['follower', 'requester', 'stranger', 'blocked', 'staff', 'hub'], playing: ['hub'] },
  suspended: {
    similar: ['PUBLIC', 'follower', 'requester', 'stranger', 'blocked', 'blocker', 'staff', 'hub'],
    playing: ['hub'],
  },
  // Staff get no exemption here: discovery leaves suspended people out for everyone.
  staff: {
    similar: ['PUBLIC', 'follower', 'requester', 'stranger', 'blocked', 'blocker', 'hub'],
    playing: ['hub'],
  },
  hub: {
    similar: ['PUBLIC', 'follower', 'requester', 'stranger', 'blocked', 'blocker', 'staff'],
    playing: [],
  },
  anonymous: { similar: [], playing: [] },
};

const EVERYONE_BUT_HUB: Role[] = [
  ...OWNER_VISIBILITIES,
  'follower',
  'requester',
  'stranger',
  'blocked',
  'blocker',
  'suspended',
  'staff',
];
const without = (roles: Role[], gone: Role[]) => roles.filter((role) => !gone.includes(role));

/** The hub's connections and conversation (comment authors), by reader. */
function hubView(role: ReadingRole): { followers: Role[]; following: Role[]; conversation: Role[] } {
  const talkers: Role[] = ['follower', 'stranger', 'blocked', 'blocker'];
  if (role === 'PUBLIC' || role === 'FOLLOWERS' || role === 'PRIVATE') {
    // Every owner blocked `blocked` and was blocked by `blocker`: both are gone from what they read.
    const gone: Role[] = ['blocked', 'blocker'];
    return {
      followers: without(EVERYONE_BUT_HUB, gone),
      following: ['follower'],
      conversation: without(talkers, gone),
    };
  }
  const followers =
    role === 'blocked' || role === 'blocker' ? without(EVERYONE_BUT_HUB, [...OWNER_VISIBILITIES]) : EVERYONE_BUT_HUB;
  // Suspended authors show to staff and to themselves only.
  const conversation = role === 'staff' || role === 'suspended' ? [...talkers, 'suspended' as const] : talkers;
  return { followers, following: ['follower', 'blocked', 'blocker'], conversation };
}

describe('visibility matrix: feeds, discovery and connections', () => {
  useCleanDatabase();
  const app = useTestApp();
  let world: World;
  before(async () => {
    world = await buildWorld(app.client);
  });

  const read = async (role: ReadingRole, path: string) => {
    const res = await world.client(role).get(path);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };

  describe('GET /activity and GET /games/{slug}/activity', () => {
    for (const role of READING_ROLES) {
      it(`${role}: the feed shows each item by its own visibility, none across a block, the suspended only to themself`, async () => {
        const body = await read(role, '/api/v1/activity?limit=180');
        expect(world.activityLabels(body.data)).to.deep.equal(feedOf(role));
      });

      it(`${role}: the game's activity is the feed on that game, its totals count its closed sessions`, async () => {
        const body = await read(role, `/api/v1/games/${world.game.slug}/activity?limit=180`);
        const closed = body.data.filter(
          (item: { kind: string; live?: boolean }) => item.kind === 'session' && !item.live,
        );
        const expected = feedOf(role).filter((label) => !label.endsWith('entry:wish'));
        const sessions = expected.filter((label) => / session:(pub|fol|priv|hub|sus)$/.test(label)).length;
        expect({
          items: world.activityLabels(body.data),
          totals: [body.totals.sessions, body.totals.minutes],
          closed: closed.length,
        }).to.deep.equal({ items: expected, totals: [sessions, 30 * sessions], closed: sessions });
      });
    }

    for (const owner of OWNER_VISIBILITIES) {
      for (const reader of ADMITTED) {
        const role: ReadingRole = reader === 'owner' ? owner : reader;
        it(`${owner} owner, ${reader}: activity?profile= is that owner's part of the feed`, async () => {
          const body = await read(role, `/api/v1/activity?profile=${NAMES[owner]}&limit=180`);
          expect(world.activityLabels(body.data)).to.deep.equal(ownerFeed(role, owner));
        });
      }
    }

    for (const role of ['suspended', 'staff', 'stranger'] as const) {
      it(`${role}: activity?profile= of the suspended person shows their items, as their pages do`, async () => {
        const body = await read(role, `/api/v1/activity?profile=${NAMES.suspended}`);
        expect(body.data.map((item: { username: string }) => item.username)).to.include(NAMES.suspended);
      });
    }
  });

  describe('GET /discovery/people', () => {
    for (const role of READING_ROLES) {
      const { similar, playing } = DISCOVERY[role];
      it(`${role}: similar taste ${similar.length}, friends playing ${playing.length}: no block, no suspended, not self`, async () => {
        const { data } = await read(role, '/api/v1/discovery/people');
        const usernames = (rows: Array<{ username: string }>) => rows.map((row) => row.username).sort();
        expect({ similar: usernames(data.similar_taste), playing: usernames(data.friends_playing) }).to.deep.equal({
          similar: names(similar),
          playing: names(playing),
        });
      });
    }
  });

  describe('GET /profiles/{u}/connections of an owner', () => {
    for (const owner of OWNER_VISIBILITIES) {
      for (const reader of ADMITTED) {
        const full = SEES_PAGES[owner].includes(reader);
        it(`${owner} owner, ${reader}: ${full ? 'followers and following' : 'empty pages'}`, async () => {
          const client = world.reader(reader, owner);
          const base = `/api/v1/profiles/${NAMES[owner]}/connections`;
          const [followers, following] = await Promise.all([client.get(base), client.get(`${base}?tab=following`)]);
          const usernames = (res: { body: { data: Array<{ username: string }> } }) =>
            res.body.data.map((row) => row.username);
          expect({ followers: usernames(followers), following: usernames(following) }).to.deep.equal(
            full ? { followers: [NAMES.follower], following: [NAMES.hub] } : { followers: [], following: [] },
          );
        });
      }
    }
  });

  describe('a third party (the hub): connections and conversation', () => {
    for (const role of READING_ROLES) {
      const view = hubView(role);
      const client = () => world.client(role);
      const base = `/api/v1/profiles/${NAMES.hub}`;

      it(`${role}: the hub's followers leave out whoever is blocked either way with the reader`, async () => {
        const res = await client().get(`${base}/connections?limit=50`);
        expect(res.body.data.map((row: { username: string }) => row.username).sort()).to.deep.equal(
          names(view.followers),
        );
      });

      it(`${role}: the hub's following leaves them out too`, async () => {
        const res = await client().get(`${base}/connections?tab=following`);
        expect(res.body.data.map((row: { username: string }) => row.username).sort()).to.deep.equal(
          names(view.following),
        );
      });

      it(`${role}: the hub's conversation, no author blocked either way, suspended only for staff and self`, async () => {
        const { data } = await read(role, `${base}/social`);
        const labels = data.conversation.comments.map((c: { id: string }) => world.label(c.id)).sort();
        expect({ labels, total: data.conversation.total }).to.deep.equal({
          labels: view.conversation.map((author) => `comment:${author}`).sort(),
          total: view.conversation.length,
        });
      });

      it(`${role}: the hub's follower count is the total, whatever the list leaves out (reported)`, async () => {
        const [{ data: summary }, { data: social }] = await Promise.all([
          read(role, `${base}/summary`),
          read(role, `${base}/social`),
        ]);
        expect([summary.followers, summary.following, social.followers, social.following]).to.deep.equal([
          10, 3, 10, 3,
        ]);
      });
    }
  });
});
