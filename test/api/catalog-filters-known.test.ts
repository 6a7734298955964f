// GET /games filters kept until now only by the copy-versus-database comparison (test/unit/catalog-copy),
// which would agree just as well if both paths were wrong the same way: `modes`, `themes` with
// `themesMode`, `perspectives`, `release=released`, the periods `this-year` and `last-90-days`, and
// `hideCancelled` (also in catalog-games.test.ts, which does not choose the path), each on
// games with known values and an exact answer. Every case is asked twice over HTTP, once answered by the
// web process's copy of the catalog and once by the database, and the test checks which one answered.
import { expect } from 'chai';
import { readCatalogCopy, useCatalogCopy } from '../../shared/catalog/copy-browse.js';
import { searchTotals } from '../../shared/catalog/game-search.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { useTestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
/** The service's today is UTC's (spec: periods are from today, UTC). */
const today = () => new Date().toISOString().slice(0, 10);
const day = (offset: number) => new Date(Date.parse(today()) + offset * DAY).toISOString().slice(0, 10);
const year = () => Number(today().slice(0, 4));

// Each dated group carries a genre of its own, so a period's answer can be read without the other
// groups (whose dates fall in or out of it depending on the day the test runs).
const THIS_YEAR = 901;
const LAST_90 = 902;
const RELEASED = 903;
const STATUSES = 904;

let igdb = 0;
/** A browsable main game (popularity above 0), released long ago unless the fields say otherwise. */
async function game(slug: string, popularity: number, fields: Record<string, unknown> = {}): Promise<void> {
  igdb += 1;
  const date = (fields.release_date as string | null | undefined) ?? '2015-06-01';
  await db()('games').insert({
    slug,
    name: slug,
    type: 0,
    popularity,
    release_date: date,
    release_year: date ? Number(date.slice(0, 4)) : null,
    igdb_id: 700000 + igdb,
    ...fields,
  });
}

describe('catalog filters on known games, from the copy and from the database', () => {
  useCleanDatabase();
  const app = useTestApp();

  before(async () => {
    // Facets: game modes, themes and perspectives are upstream ids.
    await game('solo-adventure', 80, { mode_ids: [1], theme_ids: [1, 17], perspective_ids: [2] });
    await game('coop-horror', 70, { mode_ids: [2, 3], theme_ids: [19], perspective_ids: [1] });
    await game('party-fantasy-horror', 60, { mode_ids: [3], theme_ids: [1, 19], perspective_ids: [3, 7] });
    await game('mmo-fantasy', 50, { mode_ids: [5], theme_ids: [17], perspective_ids: [1, 2] });
    // This calendar year, first and last day included; the days either side and an undated game are not.
    const y = year();
    await game('year-first-day', 40, { genre_ids: [THIS_YEAR], release_date: `${y}-01-01` });
    await game('year-last-day', 39, { genre_ids: [THIS_YEAR], release_date: `${y}-12-31` });
    await game('year-before', 38, { genre_ids: [THIS_YEAR], release_date: `${y - 1}-12-31` });
    await game('year-after', 37, { genre_ids: [THIS_YEAR], release_date: `${y + 1}-01-01` });
    await game('year-undated', 36, {
      genre_ids: [THIS_YEAR],
      release_date: null,
      release_year: y,
      status: 'rumored',
    });
    // The last 90 days, today and the 90th day back included.
    await game('days-0', 30, { genre_ids: [LAST_90], release_date: day(0) });
    await game('days-45', 29, { genre_ids: [LAST_90], release_date: day(-45) });
    await game('days-90', 28, { genre_ids: [LAST_90], release_date: day(-90) });
    await game('days-91', 27, { genre_ids: [LAST_90], release_date: day(-91) });
    await game('days-tomorrow', 26, { genre_ids: [LAST_90], release_date: day(1) });
    // Released: out on or before today.
    await game('released-today', 20, { genre_ids: [RELEASED], release_date: day(0) });
    await game('released-long-ago', 19, { genre_ids: [RELEASED], release_date: '1999-03-01' });
    await game('out-tomorrow', 18, { genre_ids: [RELEASED], release_date: day(1) });
    await game('out-next-year', 17, { genre_ids: [RELEASED], release_date: day(400) });
    await game('undated-cancelled', 16, {
      genre_ids: [RELEASED],
      release_date: null,
      status: 'cancelled',
    });
    // hideCancelled leaves out cancelled and rumored games, whatever else their status is.
    await game('status-released', 10, { genre_ids: [STATUSES], status: 'released' });
    await game('status-cancelled', 9, { genre_ids: [STATUSES], status: 'cancelled' });
    await game('status-rumored', 8, { genre_ids: [STATUSES], status: 'rumored' });
    await game('status-early-access', 7, { genre_ids: [STATUSES], status: 'early_access' });
    // The copy is read after the last change, so it holds the catalog's current version and answers.
    expect(await readCatalogCopy(db())).not.to.equal(null);
  });

  /**
   * GET /games?`query` with the copy on or off; fails unless the path asked for answered: the database
   * path reads `games g` through knex, the copy reads only the page's rows by id, on a pool of its own.
   */
  async function browse(query: string, path: 'copy' | 'database') {
    const statements: string[] = [];
    const listen = (sent: { sql: string }) => {
      if (/\bFROM games g\b/.test(sent.sql)) statements.push(sent.sql);
    };
    // A total remembered from the other path would spare the database its count.
    searchTotals.clear();
    useCatalogCopy(path === 'copy');
    db().on('query', listen);
    try {
      const res = await app.client.get(`/api/v1/games?${query}`);
      expect(res.status, res.text).to.equal(200);
      expect(statements.length > 0, `${query}: answered by the ${path === 'copy' ? 'database' : 'copy'}`).to.equal(
        path === 'database',
      );
      return res.body as { data: Array<{ slug: string }>; page: { total_items: number } };
    } finally {
      db().off('query', listen);
      useCatalogCopy(true);
    }
  }

  const cases: Array<[string, string[]]> = [
    ['modes=1', ['solo-adventure']],
    ['modes=3', ['coop-horror', 'party-fantasy-horror']],
    ['modes=2,5', ['coop-horror', 'mmo-fantasy']],
    ['modes=4', []],
    // themes: any of them by default, every one of them with themesMode=all.
    ['themes=1,19', ['solo-adventure', 'coop-horror', 'party-fantasy-horror']],
    ['themes=1,19&themesMode=any', ['solo-adventure', 'coop-horror', 'party-fantasy-horror']],
    ['themes=1,19&themesMode=all', ['party-fantasy-horror']],
    ['themes=1,17&themesMode=all', ['solo-adventure']],
    ['themes=17&themesMode=all', ['solo-adventure', 'mmo-fantasy']],
    ['themes=1,17,19&themesMode=all', []],
    ['perspectives=1', ['coop-horror', 'mmo-fantasy']],
    ['perspectives=7,2', ['solo-adventure', 'party-fantasy-horror', 'mmo-fantasy']],
    ['perspectives=3&modes=1', []],
    [`period=this-year&genres=${THIS_YEAR}`, ['year-first-day', 'year-last-day']],
    [`genres=${THIS_YEAR}`, ['year-first-day', 'year-last-day', 'year-before', 'year-after', 'year-undated']],
    [`period=last-90-days&genres=${LAST_90}`, ['days-0', 'days-45', 'days-90']],
    [`genres=${LAST_90}`, ['days-0', 'days-45', 'days-90', 'days-91', 'days-tomorrow']],
    [`release=released&genres=${RELEASED}`, ['released-today', 'released-long-ago']],
    [
      `genres=${RELEASED}`,
      ['released-today', 'released-long-ago', 'out-tomorrow', 'out-next-year', 'undated-cancelled'],
    ],
    // The facets' games came out in 2015: released, and in neither period.
    ['release=released&modes=1,2,3,5', ['solo-adventure', 'coop-horror', 'party-fantasy-horror', 'mmo-fantasy']],
    ['period=last-90-days&modes=1,2,3,5', []],
    ['period=this-year&modes=1,2,3,5', []],
    [`hideCancelled=1&genres=${STATUSES}`, ['status-released', 'status-early-access']],
    [`genres=${STATUSES}`, ['status-released', 'status-cancelled', 'status-rumored', 'status-early-access']],
  ];
  for (const [query, expected] of cases) {
    for (const path of ['copy', 'database'] as const) {
      it(`${query} from the ${path}`, async () => {
        const body = await browse(query, path);
        expect(body.data.map((g) => g.slug)).to.deep.equal(expected);
        expect(body.page.total_items).to.equal(expected.length);
      });
    }
  }
});
