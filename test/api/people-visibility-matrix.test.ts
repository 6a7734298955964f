// The visibility matrix of a person's profile (issue 8), part one: every /profiles/{u}/* route as each
// reader (owner, follower, stranger, anonymous, blocked, blocker, suspended, staff) of an owner under each
// library visibility: who is let in at all, the profile itself, the library and the summary's counts, the
// layout, the social answer and the standing. One world for the file (test/helpers/visibility-world.ts);
// each `it` is one cell. The per-item routes are in people-visibility-items.test.ts, the feeds, discovery
// and connections in people-visibility-feeds.test.ts, the searches in people-visibility-search.test.ts.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import {
  ADMITTED,
  buildWorld,
  NAMES,
  OWNER_VISIBILITIES,
  SEES_ITEMS,
  SEES_LIBRARY,
  SEES_PAGES,
  type AdmittedReader,
  type OwnerVisibility,
  type ReaderName,
  type Role,
  type World,
} from '../helpers/visibility-world.js';

/** Every route that shows something of one person, by the person's role. */
const PERSON_ROUTES: Array<[string, (role: Role, world: World) => string]> = [
  ['profile', (role) => `/api/v1/profiles/${NAMES[role]}`],
  ['social', (role) => `/api/v1/profiles/${NAMES[role]}/social`],
  ['summary', (role) => `/api/v1/profiles/${NAMES[role]}/summary`],
  ['library', (role) => `/api/v1/profiles/${NAMES[role]}/library`],
  ['layout', (role) => `/api/v1/profiles/${NAMES[role]}/layout`],
  ['connections', (role) => `/api/v1/profiles/${NAMES[role]}/connections`],
  ['connections (following)', (role) => `/api/v1/profiles/${NAMES[role]}/connections?tab=following`],
  ['screenshots', (role) => `/api/v1/profiles/${NAMES[role]}/screenshots`],
  ['stats', (role) => `/api/v1/profiles/${NAMES[role]}/stats`],
  ['year', (role, world) => `/api/v1/profiles/${NAMES[role]}/year/${world.year}`],
  ['lists', (role) => `/api/v1/profiles/${NAMES[role]}/lists`],
  ['list folders', (role) => `/api/v1/profiles/${NAMES[role]}/lists/folders`],
  ['reviews', (role) => `/api/v1/profiles/${NAMES[role]}/reviews`],
  ['journeys', (role) => `/api/v1/profiles/${NAMES[role]}/journeys`],
  ['minerals', (role) => `/api/v1/profiles/${NAMES[role]}/minerals`],
  ['verification', (role) => `/api/v1/profiles/${NAMES[role]}/verification`],
  ['verification by account id', (role, world) => `/api/v1/profiles/${world.person[role].id}/verification`],
  ['activity?profile=', (role) => `/api/v1/activity?profile=${NAMES[role]}`],
  ['activity?profiles=', (role) => `/api/v1/activity?profiles=vis_hub,${NAMES[role]}`],
];

const BLOCKED_EITHER_WAY = ['blocked', 'blocker'] as const;

/** The summary every admitted reader gets of an owner, by what they may see. */
function expectedSummary(owner: OwnerVisibility, reader: AdmittedReader) {
  const library = SEES_LIBRARY[owner].includes(reader);
  const items = SEES_ITEMS[reader];
  const n = items.length;
  return {
    library: library ? 2 : 0,
    played: library ? 1 : 0,
    playing: 0,
    backlog: 0,
    wishlist: library ? 1 : 0,
    lists: n,
    reviews: n,
    diary: n,
    journeys: n,
    // The removed capture counts nowhere, not even for its owner; the FOLLOWERS one is the spoiler.
    screenshots: n,
    screenshot_games: 1,
    screenshot_spoilers: items.includes('fol') ? 1 : 0,
    followers: 1,
    following: 1,
    viewer_follows: reader === 'follower',
    follows_viewer: false,
  };
}

/** The conversation of an owner's profile (comment authors) as each reader sees it when shown at all. */
const CONVERSATION: Record<AdmittedReader, string[]> = {
  // The owner blocked `blocked`, and `blocker` blocked the owner: neither shows to the owner.
  owner: ['follower', 'staff', 'stranger'],
  // A comment by someone who blocked the owner still shows to others; the owner's own blocks hide.
  follower: ['blocker', 'follower', 'staff', 'stranger'],
  requester: ['blocker', 'follower', 'staff', 'stranger'],
  stranger: ['blocker', 'follower', 'staff', 'stranger'],
  anonymous: ['blocker', 'follower', 'staff', 'stranger'],
  // Suspended authors show to staff and to themselves only.
  suspended: ['blocker', 'follower', 'staff', 'stranger', 'suspended'],
  staff: ['blocker', 'follower', 'staff', 'stranger', 'suspended'],
};

const WALLET: Record<AdmittedReader, { balance: number; level: number } | null> = {
  owner: { balance: 30, level: 3 },
  follower: { balance: 5, level: 1 },
  requester: { balance: 0, level: 1 },
  stranger: { balance: 0, level: 1 },
  anonymous: null,
  // What the world's posts earned them: a review 10, a list 5, a screenshot 2, a closed session 2.
  suspended: { balance: 19, level: 1 },
  staff: { balance: 0, level: 1 },
};

describe('visibility matrix: a person’s profile routes', () => {
  useCleanDatabase();
  const app = useTestApp();
  let world: World;
  before(async () => {
    world = await buildWorld(app.client);
  });

  const get = async (owner: OwnerVisibility, reader: AdmittedReader, path: string) => {
    const res = await world.reader(reader, owner).get(`/api/v1/profiles/${NAMES[owner]}${path}`);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };

  describe('who is let in: 404 both ways across a block, on every route; 200 for everyone else', () => {
    const notFound = async (reader: ReaderName, owner: OwnerVisibility, path: string) => {
      const res = await world.reader(reader, owner).get(path);
      expect({ status: res.status, code: res.body.error?.code }, res.text).to.deep.equal({
        status: 404,
        code: 'not_found',
      });
    };
    for (const owner of OWNER_VISIBILITIES) {
      for (const reader of BLOCKED_EITHER_WAY) {
        for (const [route, path] of PERSON_ROUTES) {
          it(`${owner} owner, ${reader} reads ${route}: 404`, () => notFound(reader, owner, path(owner, world)));
          it(`${owner} owner reads the ${reader}'s ${route}: 404`, () => notFound('owner', owner, path(reader, world)));
        }
      }
      for (const reader of ADMITTED) {
        it(`${owner} owner, ${reader}: every route answers 200`, async () => {
          const client = world.reader(reader, owner);
          const statuses = await Promise.all(PERSON_ROUTES.map(([, path]) => client.get(path(owner, world))));
          const answered = Object.fromEntries(PERSON_ROUTES.map(([route], i) => [route, statuses[i].status]));
          expect(answered).to.deep.equal(Object.fromEntries(PERSON_ROUTES.map(([route]) => [route, 200])));
        });
      }
    }
  });

  describe('profile, library, summary', () => {
    for (const owner of OWNER_VISIBILITIES) {
      for (const reader of ADMITTED) {
        const library = SEES_LIBRARY[owner].includes(reader);

        it(`${owner} owner, ${reader}: the profile says private=${owner !== 'PUBLIC'}`, async () => {
          const { data } = await get(owner, reader, '');
          expect({ username: data.username, visibility: data.library_visibility, private: data.private }).to.deep.equal(
            { username: NAMES[owner], visibility: owner, private: owner !== 'PUBLIC' },
          );
        });

        it(`${owner} owner, ${reader}: library ${library ? 'shown' : 'an empty page'}, its total equal`, async () => {
          const body = await get(owner, reader, '/library');
          const statuses = body.data.map((row: { status: string }) => row.status).sort();
          expect({ statuses, total: body.page.total_items, profile: body.profile }).to.deep.equal({
            statuses: library ? ['COMPLETED', 'WISHLIST'] : [],
            total: library ? 2 : 0,
            profile: { username: NAMES[owner] },
          });
        });

        it(`${owner} owner, ${reader}: summary counts what the reader may see`, async () => {
          const { data } = await get(owner, reader, '/summary');
          expect(data).to.deep.equal(expectedSummary(owner, reader));
        });

        it(`${owner} owner, ${reader}: summary library counts equal the library's rows`, async () => {
          const [{ data: summary }, rows] = await Promise.all([
            get(owner, reader, '/summary'),
            get(owner, reader, '/library?limit=1000'),
          ]);
          expect(summary.library).to.equal(rows.data.length);
        });

        it(`${owner} owner, ${reader}: stats show copies and ratings only with the library`, async () => {
          const { data } = await get(owner, reader, '/stats');
          const rated = data.rating_distribution.reduce((sum: number, b: { count: number }) => sum + b.count, 0);
          const n = SEES_ITEMS[reader].length;
          expect({
            sessions: data.totals.sessions,
            minutes: data.totals.minutes,
            copies: data.copy_platforms.length,
            rated,
          }).to.deep.equal({ sessions: n, minutes: 30 * n, copies: library ? 1 : 0, rated: library ? 1 : 0 });
        });
      }
    }
  });

  describe('layout, social, standing', () => {
    for (const owner of OWNER_VISIBILITIES) {
      for (const reader of ADMITTED) {
        const full = SEES_PAGES[owner].includes(reader);

        it(`${owner} owner, ${reader}: layout is the ${full ? 'published one' : 'default'}`, async () => {
          const { data } = await get(owner, reader, '/layout');
          expect(data.customized).to.equal(full);
        });

        it(`${owner} owner, ${reader}: social counts, relationship and own wallet`, async () => {
          const { data } = await get(owner, reader, '/social');
          const self = reader === 'owner';
          expect({
            followers: data.followers,
            following: data.following,
            relationship: data.relationship,
            wallet: data.wallet,
          }).to.deep.equal({
            followers: 1,
            following: 1,
            relationship:
              reader === 'anonymous'
                ? null
                : {
                    self,
                    following: reader === 'follower',
                    requested: reader === 'requester' && owner !== 'PUBLIC',
                    followed_by: false,
                  },
            wallet: WALLET[reader],
          });
        });

        const authors = full ? CONVERSATION[reader] : null;
        it(`${owner} owner, ${reader}: conversation ${authors ? `by ${authors.join(', ')}` : 'null'}`, async () => {
          const { data } = await get(owner, reader, '/social');
          const talk = data.conversation;
          const seen = talk && {
            labels: talk.comments.map((c: { id: string }) => world.label(c.id)).sort(),
            total: talk.total,
          };
          expect(seen).to.deep.equal(
            authors && { labels: authors.map((who) => `comment:${who}`), total: authors.length },
          );
        });

        it(`${owner} owner, ${reader}: minerals and verification are the same for everyone let in`, async () => {
          const [minerals, verification] = await Promise.all([
            get(owner, reader, '/minerals'),
            get(owner, reader, '/verification'),
          ]);
          expect({ minerals: minerals.data, vouched_by: verification.data.vouched_by }).to.deep.equal({
            minerals: { username: NAMES[owner], balance: 30, level: 3 },
            vouched_by: NAMES.staff,
          });
        });
      }
    }
  });

  describe('a key reads as its owner: the same relation as their session', () => {
    // Each person's key, with the scopes of these two routes, reading the FOLLOWERS owner.
    const KEYED: Array<['follower' | 'requester' | 'stranger' | 'blocked' | 'blocker', number, string[]]> = [
      ['follower', 200, ['list:fol', 'list:pub']],
      ['requester', 200, ['list:pub']],
      ['stranger', 200, ['list:pub']],
      ['blocked', 404, []],
      ['blocker', 404, []],
    ];
    for (const [role, status, lists] of KEYED) {
      const shown = status === 200 ? `, lists ${lists.join(', ')}, library ${role === 'follower' ? 2 : 0} rows` : '';
      it(`${role}'s key on the FOLLOWERS owner: ${status}${shown}`, async () => {
        const { token } = await appWithKey(world.person[role].id, ['lists.read', 'library.read']);
        const headers = { authorization: `Bearer ${token}` };
        const base = `/api/v1/profiles/${NAMES.FOLLOWERS}`;
        const [listed, library] = await Promise.all([
          app.client.get(`${base}/lists`, { headers }),
          app.client.get(`${base}/library`, { headers }),
        ]);
        const ids = status === 200 ? listed.body.data.map((list: { id: string }) => world.label(list.id)).sort() : [];
        expect({
          status: [listed.status, library.status],
          lists: ids,
          library: status === 200 ? library.body.data.length : 0,
        }).to.deep.equal({ status: [status, status], lists, library: role === 'follower' ? 2 : 0 });
      });
    }
  });
});
