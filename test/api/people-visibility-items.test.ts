// The visibility matrix (issue 8), part two: items that carry their own visibility (lists and their
// folders, reviews with the diary, journeys, screenshots) and the year page, as each admitted reader of an
// owner under each library visibility sees them, with every count checked against the list it counts.
// Also the profile of a suspended person, whose pages stay open. The world: test/helpers/visibility-world.ts.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { useTestApp } from '../helpers/test-app.js';
import {
  ADMITTED,
  buildWorld,
  labelsOf,
  NAMES,
  OWNER_VISIBILITIES,
  SEES_ITEMS,
  SEES_LIBRARY,
  type AdmittedReader,
  type OwnerVisibility,
  type ReadingRole,
  type World,
} from '../helpers/visibility-world.js';

/** `kind:label` for each label the reader sees. */
const seen = (kind: string, reader: AdmittedReader) => SEES_ITEMS[reader].map((label) => `${kind}:${label}`).sort();

/** The folders (name and count of readable lists) and the unfiled count each reader gets. */
const FOLDERS: Record<AdmittedReader, { folders: string[]; unfiled: number }> = {
  // The owner sees every folder, the empty one and the all-private one included.
  owner: { folders: ['Empty 0', 'Open 1', 'Secret 1'], unfiled: 1 },
  follower: { folders: ['Open 1'], unfiled: 1 },
  requester: { folders: ['Open 1'], unfiled: 0 },
  stranger: { folders: ['Open 1'], unfiled: 0 },
  anonymous: { folders: ['Open 1'], unfiled: 0 },
  suspended: { folders: ['Open 1'], unfiled: 0 },
  staff: { folders: ['Open 1'], unfiled: 0 },
};

describe('visibility matrix: items with their own visibility, and their counts', () => {
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
  const summary = async (owner: OwnerVisibility, reader: AdmittedReader) => (await get(owner, reader, '/summary')).data;

  for (const owner of OWNER_VISIBILITIES) {
    describe(`${owner} owner`, () => {
      for (const reader of ADMITTED) {
        const items = SEES_ITEMS[reader];
        const n = items.length;

        it(`${reader}: lists ${items.join(', ')}; total and summary agree`, async () => {
          const [body, counts] = await Promise.all([get(owner, reader, '/lists?limit=48'), summary(owner, reader)]);
          const ids = body.data.map((l: { id: string }) => l.id);
          expect({ lists: labelsOf(world, ids), total: body.page.total_items, summary: counts.lists }).to.deep.equal({
            lists: seen('list', reader),
            total: n,
            summary: n,
          });
        });

        it(`${reader}: list visibility shows to the owner only`, async () => {
          const body = await get(owner, reader, '/lists');
          const shown = body.data.map((l: { visibility?: string }) => l.visibility ?? null).filter(Boolean);
          expect(shown.length).to.equal(reader === 'owner' ? n : 0);
        });

        const folders = FOLDERS[reader];
        it(`${reader}: folders ${folders.folders.join(', ')}, unfiled ${folders.unfiled}`, async () => {
          const { data } = await get(owner, reader, '/lists/folders');
          const names = data.folders.map((f: { name: string; count: number }) => `${f.name} ${f.count}`);
          expect({ folders: names, unfiled: data.unfiled }).to.deep.equal(folders);
        });

        it(`${reader}: folder counts and unfiled add up to the visible lists`, async () => {
          const [{ data }, counts] = await Promise.all([get(owner, reader, '/lists/folders'), summary(owner, reader)]);
          const filed = data.folders.reduce((sum: number, f: { count: number }) => sum + f.count, 0);
          expect(filed + data.unfiled).to.equal(counts.lists);
        });

        it(`${reader}: reviews and diary ${items.join(', ')} (and the live session); summary agrees`, async () => {
          const [body, counts] = await Promise.all([get(owner, reader, '/reviews?limit=180'), summary(owner, reader)]);
          const labels = labelsOf(
            world,
            body.data.map((i: { id: string }) => i.id),
          );
          const closed = body.data.filter((i: { kind: string; live?: boolean }) => i.kind === 'session' && !i.live);
          expect({
            labels,
            reviews: counts.reviews,
            diary: counts.diary,
            closed: closed.length,
          }).to.deep.equal({
            labels: [...seen('review', reader), ...seen('session', reader), 'session:live'].sort(),
            reviews: n,
            diary: n,
            closed: n,
          });
        });

        it(`${reader}: journeys ${items.join(', ')}; total and summary agree`, async () => {
          const [body, counts] = await Promise.all([get(owner, reader, '/journeys'), summary(owner, reader)]);
          const ids = body.data.map((j: { id: string }) => j.id);
          expect({
            journeys: labelsOf(world, ids),
            total: body.page.total_items,
            summary: counts.journeys,
          }).to.deep.equal({ journeys: seen('journey', reader), total: n, summary: n });
        });

        it(`${reader}: screenshots ${items.join(', ')}, never the removed one; counts agree`, async () => {
          const [body, counts] = await Promise.all([get(owner, reader, '/screenshots'), summary(owner, reader)]);
          const spoilers = items.includes('fol') ? 1 : 0;
          expect({
            shots: labelsOf(
              world,
              body.data.map((s: { id: string }) => s.id),
            ),
            total: body.total,
            safe: body.safe_count,
            spoilers: body.spoiler_count,
            games: body.games.map((g: { count: number }) => g.count),
            summary: [counts.screenshots, counts.screenshot_spoilers, counts.screenshot_games],
          }).to.deep.equal({
            shots: seen('screenshot', reader),
            total: n,
            safe: n - spoilers,
            spoilers,
            games: [n],
            summary: [n, spoilers, 1],
          });
        });

        const library = SEES_LIBRARY[owner].includes(reader);
        it(`${reader}: the year holds ${items.join(', ')} and ${library ? 'the library' : 'no library'}`, async () => {
          const { data } = await get(owner, reader, `/year/${world.year}`);
          const of = (rows: Array<{ id: string }>) =>
            labelsOf(
              world,
              rows.map((row) => row.id),
            );
          expect({
            sessions: of(data.sessions),
            reviews: of(data.reviews),
            lists: of(data.lists),
            screenshots: of(data.screenshots),
            journeys: of(data.journeys),
            library: data.library.length,
          }).to.deep.equal({
            sessions: seen('session', reader),
            reviews: seen('review', reader),
            lists: seen('list', reader),
            screenshots: seen('screenshot', reader),
            journeys: seen('journey', reader),
            library: library ? 2 : 0,
          });
        });

        it(`${reader}: the year's totals count its lists, and match the summary`, async () => {
          const [{ data }, counts] = await Promise.all([
            get(owner, reader, `/year/${world.year}`),
            summary(owner, reader),
          ]);
          const { totals } = data;
          expect(totals).to.deep.equal({
            sessions: data.sessions.length,
            minutes: 30 * data.sessions.length,
            reviews: data.reviews.length,
            added: data.library.length,
            played: data.library.filter((row: { played: boolean }) => row.played).length,
            lists: data.lists.length,
            screenshots: data.screenshots.length,
            journeys: data.journeys.length,
          });
          expect([totals.sessions, totals.reviews, totals.lists, totals.screenshots, totals.journeys]).to.deep.equal([
            counts.diary,
            counts.reviews,
            counts.lists,
            counts.screenshots,
            counts.journeys,
          ]);
        });
      }
    });
  }

  describe('filters narrow within what the reader may see, never past it', () => {
    const NARROWING: Array<[string, (reader: AdmittedReader) => string[]]> = [
      ['/lists?visibility=PRIVATE', (reader) => (reader === 'owner' ? ['list:priv'] : [])],
      ['/lists?visibility=FOLLOWERS', (reader) => (SEES_ITEMS[reader].includes('fol') ? ['list:fol'] : [])],
      ['/screenshots?spoilers=spoilers', (reader) => (SEES_ITEMS[reader].includes('fol') ? ['screenshot:fol'] : [])],
      ['/reviews?q=priv', (reader) => (reader === 'owner' ? ['review:priv'] : [])],
    ];
    for (const owner of OWNER_VISIBILITIES) {
      for (const reader of ADMITTED) {
        for (const [query, expected] of NARROWING) {
          it(`${owner} owner, ${reader}: ${query} finds ${expected(reader).join(', ') || 'nothing'}`, async () => {
            const body = await get(owner, reader, query);
            expect(
              labelsOf(
                world,
                body.data.map((item: { id: string }) => item.id),
              ),
            ).to.deep.equal(expected(reader));
          });
        }

        it(`${owner} owner, ${reader}: the all-private folder, asked by its id, holds ${reader === 'owner' ? 'its list' : 'nothing'}`, async () => {
          const { data } = await get(owner, 'owner', '/lists/folders');
          const secret = data.folders.find((folder: { name: string }) => folder.name === 'Secret').id;
          const body = await get(owner, reader, `/lists?folder=${secret}`);
          expect(
            labelsOf(
              world,
              body.data.map((list: { id: string }) => list.id),
            ),
          ).to.deep.equal(reader === 'owner' ? ['list:priv'] : []);
        });
      }
    }
  });

  describe('a suspended person’s own pages stay open, their reviews page included', () => {
    // Suspension leaves a person out of searches, discovery, the shared feeds and the index; the profile
    // routes do not ask about it, /reviews included (a feed of one named author), so it lists what /summary
    // counts (docs/api-notes.md, Activity).
    const READERS_OF_SUSPENDED: ReadingRole[] = ['suspended', 'stranger', 'anonymous', 'staff', 'follower'];
    const path = (tail: string) => `/api/v1/profiles/${NAMES.suspended}${tail}`;

    for (const role of READERS_OF_SUSPENDED) {
      it(`${role}: lists, screenshots and the summary show the suspended person's PUBLIC items`, async () => {
        const client = world.client(role);
        const [lists, shots, counts] = await Promise.all([
          client.get(path('/lists')),
          client.get(path('/screenshots')),
          client.get(path('/summary')),
        ]);
        const { data } = counts.body;
        expect({
          lists: labelsOf(
            world,
            lists.body.data.map((l: { id: string }) => l.id),
          ),
          shots: labelsOf(
            world,
            shots.body.data.map((s: { id: string }) => s.id),
          ),
          counts: [data.lists, data.screenshots, data.reviews, data.diary],
        }).to.deep.equal({ lists: ['list:sus'], shots: ['screenshot:sus'], counts: [1, 1, 1, 1] });
      });

      it(`${role}: /reviews of the suspended person lists the review and diary session /summary counts`, async () => {
        const res = await world.client(role).get(path('/reviews'));
        const kinds = res.body.data.map((item: { kind: string }) => item.kind).sort();
        expect({ status: res.status, kinds }).to.deep.equal({ status: 200, kinds: ['review', 'session'] });
      });
    }
  });
});
