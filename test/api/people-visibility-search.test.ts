// The visibility matrix (issue 8), part four: the searches and the public index, where suspension
// counts. People search leaves out the suspended (rows and total) except for staff and the account
// itself, and anyone blocked either way with the reader; search counts and the index are one answer for
// every caller (cached publicly), so they leave out the suspended for everyone and cannot apply a
// reader's blocks. The world: test/helpers/visibility-world.ts; each `it` is one cell.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import {
  buildWorld,
  NAMES,
  OTHERS,
  OWNER_VISIBILITIES,
  READING_ROLES,
  type ReadingRole,
  type Role,
  type World,
} from '../helpers/visibility-world.js';

const EVERYONE: Role[] = [...OWNER_VISIBILITIES, ...OTHERS];
const without = (gone: Role[]) => EVERYONE.filter((role) => !gone.includes(role));

/** Who /search/people?q=vis_ finds, by reader. */
const FOUND: Record<ReadingRole, Role[]> = {
  anonymous: without(['suspended']),
  // Each owner blocked `blocked` and was blocked by `blocker`.
  PUBLIC: without(['blocked', 'blocker', 'suspended']),
  FOLLOWERS: without(['blocked', 'blocker', 'suspended']),
  PRIVATE: without(['blocked', 'blocker', 'suspended']),
  follower: without(['suspended']),
  requester: without(['suspended']),
  stranger: without(['suspended']),
  hub: without(['suspended']),
  blocked: without([...OWNER_VISIBILITIES, 'suspended']),
  blocker: without([...OWNER_VISIBILITIES, 'suspended']),
  // The suspended account finds itself; staff find it to act on it.
  suspended: EVERYONE,
  staff: EVERYONE,
};

/**
 * Three more people of this file only, by their standing: a ban counts as a suspension, an expired
 * suspension and a warning count as nothing. They are found as the rest of `FOUND` (nobody blocks them).
 */
const STANDING: Array<[string, { reason: string; expires_at?: Date }]> = [
  ['vis_banned', { reason: 'Banimento permanente' }],
  ['vis_expired', { reason: 'Suspensão', expires_at: new Date(Date.now() - 86_400_000) }],
  ['vis_warned', { reason: 'Aviso' }],
];
const standingFound = (role: ReadingRole) =>
  role === 'staff' ? ['vis_banned', 'vis_expired', 'vis_warned'] : ['vis_expired', 'vis_warned'];

/** The index, the same for every caller: PUBLIC items of people not suspended, entries of PUBLIC libraries. */
const INDEX = {
  reviews: OWNER_VISIBILITIES.map((owner) => `${NAMES[owner]} review:pub`).sort(),
  lists: OWNER_VISIBILITIES.map((owner) => `${NAMES[owner]} list:pub`).sort(),
  // Never the removed capture, nor a FOLLOWERS or PRIVATE one, nor the suspended person's.
  screenshots: OWNER_VISIBILITIES.map((owner) => `${NAMES[owner]} screenshot:pub`).sort(),
  // Both entries of the PUBLIC owner, the loved game of everyone else with a PUBLIC library.
  entries: [
    NAMES.PUBLIC,
    ...(['follower', 'requester', 'stranger', 'blocked', 'blocker', 'staff', 'hub'] as const).map((r) => NAMES[r]),
  ]
    .concat(NAMES.PUBLIC)
    .sort(),
};

/** /search/counts?q=vis, the same for every caller. */
const COUNTS = {
  q: 'vis',
  cap: 1000,
  games: 0,
  // The owners' PUBLIC reviews and lists; the suspended person's are left out.
  reviews: 3,
  lists: 3,
  tier_lists: 0,
  awards: 0,
  // Everyone but the suspended and the banned.
  people: EVERYONE.length - 1 + 2,
  companies: 0,
};

describe('visibility matrix: searches and the public index', () => {
  useCleanDatabase();
  const app = useTestApp();
  let world: World;
  before(async () => {
    world = await buildWorld(app.client);
    for (const [username, infraction] of STANDING) {
      const { account } = await buildAccount({ username });
      await db()('infractions').insert({ account_id: account.id, ...infraction });
    }
  });

  const read = async (role: ReadingRole, path: string) => {
    const res = await world.client(role).get(path);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };

  describe('GET /search/people', () => {
    for (const role of READING_ROLES) {
      const found = [...FOUND[role].map((r) => NAMES[r]), ...standingFound(role)].sort();
      it(`${role}: finds ${found.length}, total included (suspended: staff and self; blocks: neither way)`, async () => {
        const body = await read(role, '/api/v1/search/people?q=vis_&sort=name');
        expect({
          usernames: body.data.map((row: { username: string }) => row.username),
          total: body.page.total_items,
        }).to.deep.equal({ usernames: found, total: found.length });
      });
    }

    it('staff find the suspended person by name; a stranger does not, total included', async () => {
      const [staff, stranger] = await Promise.all([
        read('staff', `/api/v1/search/people?q=${NAMES.suspended}`),
        read('stranger', `/api/v1/search/people?q=${NAMES.suspended}`),
      ]);
      expect([staff.page.total_items, stranger.page.total_items, stranger.data.length]).to.deep.equal([1, 0, 0]);
    });
  });

  describe('GET /search/counts', () => {
    for (const role of READING_ROLES) {
      it(`${role}: the same counts as everyone, without the suspended person or their items`, async () => {
        const { data } = await read(role, '/api/v1/search/counts?q=vis');
        expect(data).to.deep.equal(COUNTS);
      });
    }

    it('its people count equals what an anonymous people search finds', async () => {
      const [{ data: counts }, search] = await Promise.all([
        read('anonymous', '/api/v1/search/counts?q=vis'),
        read('anonymous', '/api/v1/search/people?q=vis'),
      ]);
      expect(counts.people).to.equal(search.page.total_items);
    });
  });

  describe('GET /index', () => {
    for (const role of READING_ROLES) {
      it(`${role}: one index for everyone, blocks not applied (public cache), no suspended author`, async () => {
        const { data } = await read(role, '/api/v1/index');
        const labelled = (rows: Array<{ id: string; username: string }>) => world.activityLabels(rows);
        expect({
          reviews: labelled(data.reviews),
          lists: labelled(data.lists),
          screenshots: labelled(data.screenshots),
          entries: data.entries.map((row: { username: string }) => row.username).sort(),
        }).to.deep.equal(INDEX);
      });
    }
  });
});
