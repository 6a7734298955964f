// The catalog's copy in memory (shared/catalog/copy-*.ts) answers a browse exactly as the database does:
// over a catalog of random games made to hit every edge the filters have (NULLs, every status and type,
// dates either side of today, language variants, lists that repeat an id), thousands of generated
// searches, every parameter of GET /games drawn from its schema, must give the same page and total both
// ways. And the copy is never older than the database: a change to the games sends a browse back to the
// database until the copy is read again.
import { expect } from 'chai';
import { searchGames, searchTotals, TOTAL_CAP } from '../../shared/catalog/game-search.js';
import { GAME_PAGE } from '../../shared/catalog/game-pages.js';
import { AGE_STEPS } from '../../shared/catalog/age-ratings.js';
import { browseFromCopy, catalogCopyInHand, readCatalogCopy, textFromCopy } from '../../shared/catalog/copy-browse.js';
import { readCatalogSnapshotOffThread } from '../../shared/catalog/copy-read.js';
import { walk } from '../../shared/catalog/copy-walk.js';
import { readCatalogSnapshot, type CatalogSnapshot } from '../../shared/catalog/copy-indexes.js';
import { answersInMemory, gameFilters } from '../../shared/catalog/copy-filters.js';
import {
  GAME_SORTS,
  GAME_TYPES,
  gameSearchQuery,
  OWN_LIBRARY_FILTERS,
  type GameSearch,
} from '../../shared/catalog/search-parameters.js';
import { createKnex, db } from '../../shared/platform/db/knex.js';
import { isApiError, type ApiError } from '../../shared/platform/errors.js';
import { pageWindow } from '../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../shared/platform/validation/ajv.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { searchDatabaseOnly } from '../helpers/catalog-ways.js';
import { seededRandom, type SeededRandom } from '../helpers/seeded-random.js';

const TODAY = '2026-11-26';
const STATUSES = ['released', 'alpha', 'beta', 'early_access', 'offline', 'cancelled', 'rumored', 'delisted'];
const LANGUAGES = ['en', 'pt', 'pt-BR', 'pt-PT', 'ja', 'de', 'fr', 'es', 'es-MX', 'zh-Hans'];
const IDS = [1, 2, 3, 5, 8, 13, 21, 34];
/** Where each list parameter's ids live, so a search names ids the catalog holds. */
const LIST_PARAMETERS: Record<string, string> = {
  platforms: 'platform_ids',
  genres: 'genre_ids',
  themes: 'theme_ids',
  modes: 'mode_ids',
  perspectives: 'perspective_ids',
  franchises: 'franchise_ids',
  series: 'series_ids',
  publishers: 'publisher_ids',
};
/** Parameters the copy does not answer (they go to the database), or that are not filters. */
const NOT_IN_MEMORY = new Set(['q', 'engines', 'page', 'sort', ...OWN_LIBRARY_FILTERS]);

const dayOffset = (days: number) => new Date(Date.parse(TODAY) + days * 86_400_000).toISOString().slice(0, 10);

function randomGame(random: SeededRandom, n: number): Record<string, unknown> {
  const { int, pick, chance, some } = random;
  const dated = chance(0.8);
  // Dates around today (periods, upcoming) and far back (years), a few before 1950 with no year.
  const date = chance(0.3)
    ? dayOffset(int(-120, 120))
    : `${int(1940, 2030)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`;
  const year = Number(date.slice(0, 4));
  const languages = () => [
    ...new Set(some(LANGUAGES, 4).flatMap((code) => (code.includes('-') ? [code, code.split('-')[0]] : [code]))),
  ];
  const age = (steps: number) => (chance(0.4) ? int(0, steps - 1) : null);
  return {
    slug: `copy-game-${n}`,
    name: randomName(random, n),
    igdb_id: 500000 + n,
    type: chance(0.05) ? null : pick(GAME_TYPES.filter((type) => type < 12)),
    status: pick(STATUSES),
    release_date: dated ? date : null,
    release_year: dated && year >= 1950 ? year : chance(0.1) ? int(1950, 2030) : null,
    hours_main: chance(0.6) ? int(1, 120) : null,
    platform_ids: some(IDS, 3),
    genre_ids: some(IDS, 3),
    theme_ids: some(IDS, 2),
    mode_ids: some(IDS, 2),
    perspective_ids: some(IDS, 2),
    franchise_ids: some(IDS, 1),
    series_ids: some(IDS, 1),
    publisher_ids: some(IDS, 2),
    developer_ids: some(IDS, 2),
    interface_languages: languages(),
    audio_languages: languages(),
    subtitle_languages: languages(),
    ...Object.fromEntries(Object.entries(AGE_STEPS).map(([board, steps]) => [`age_${board}`, age(steps.length)])),
    rating: chance(0.5) ? int(0, 1000) / 10 : null,
    rating_count: chance(0.5) ? 0 : int(0, 50),
    weighted_rating: chance(0.5) ? int(0, 1000) / 10 : null,
    review_count: chance(0.7) ? 0 : int(1, 9),
    library_count: chance(0.6) ? 0 : int(1, 99),
    // Ties, so the order's tie on id is tested too.
    popularity: chance(0.4) ? 0 : int(1, 40) / 4,
    trending: chance(0.5) ? 0 : int(1, 20),
    hype: chance(0.7) ? 0 : int(1, 30),
    demo_available: chance(0.2),
    store_url: chance(0.3) ? `https://store.example/${n}` : null,
    // Not drawn, so the games drawn stay the same: a cover on two games in three, which the pages read
    // from the copy must show as the database's do.
    cover_image_id: n % 3 === 0 ? null : `co${n.toString(36)}`,
  };
}

const WORDS = ['Alpha', 'beta', 'Émile', 'zeta', 'Omega', 'ñu', 'Delta', 'Ko', 'k!', '(Kai)', 'A', 'Ōkami'];

/** Names with short words, punctuation, accents and doubled spaces, and some as short as a text. */
function randomName(random: SeededRandom, n: number): string {
  if (random.chance(0.05)) return random.pick(['Ko', 'A', 'ñu', 'k!', 'Be', 'Z']);
  const words = Array.from({ length: random.int(1, 3) }, () => random.pick(WORDS));
  return `${words.join(random.chance(0.1) ? '  ' : ' ')} ${n}`;
}

/** A text as people type a short one: a word's first letters, any case and accent, or punctuation. */
const SHORT_TEXTS = [
  'a',
  'k',
  'ko',
  'KO',
  'Ko',
  'be',
  'z',
  'ze',
  'ñ',
  'ñu',
  'nu',
  'o',
  'ō',
  'ok',
  'e',
  'é',
  'em',
  'k!',
  '(k',
  '1',
  '12',
  '!!',
  'q',
  'xy',
];

/** One value of a parameter, drawn from what its schema allows. */
function randomValue(random: SeededRandom, name: string, schema: SchemaObject): unknown {
  const { int, pick, some } = random;
  if (LIST_PARAMETERS[name]) return some([...IDS, 99], 3).concat(pick(IDS));
  if (['language', 'interface', 'audio', 'subtitles'].includes(name)) {
    return some([...LANGUAGES, 'PT', 'pt-br', 'xx'], 2).concat(pick(LANGUAGES));
  }
  if (schema.enum) return pick(schema.enum as unknown[]);
  if (schema.type === 'array') {
    const items = schema.items as SchemaObject;
    return Array.from({ length: int(1, 3) }, () => randomValue(random, name, items));
  }
  if (schema.type === 'integer') {
    const [low, high] = [
      schema.minimum as number,
      Math.min(schema.maximum as number, (schema.minimum as number) + 130),
    ];
    return name.startsWith('year') ? int(1950, 2035) : int(low, high);
  }
  throw new Error(`no generator for the parameter ${name}: teach this test how to draw it`);
}

function randomSearch(random: SeededRandom): GameSearch {
  const properties = gameSearchQuery.properties as Record<string, SchemaObject>;
  const search: Record<string, unknown> & { yearFrom?: number; yearTo?: number; hoursMin?: number; hoursMax?: number } =
    {
      page: random.chance(0.5) ? random.int(1, 3) : random.int(4, 100),
    };
  if (random.chance(0.8)) search.sort = random.pick(GAME_SORTS);
  const names = Object.keys(properties).filter((name) => !NOT_IN_MEMORY.has(name));
  for (const name of random.some(names, 4)) search[name] = randomValue(random, name, properties[name]);
  if (search.yearFrom !== undefined && search.yearTo !== undefined && search.yearFrom > search.yearTo) {
    [search.yearFrom, search.yearTo] = [search.yearTo, search.yearFrom];
  }
  if (search.hoursMin !== undefined && search.hoursMax !== undefined && search.hoursMin > search.hoursMax) {
    [search.hoursMin, search.hoursMax] = [search.hoursMax, search.hoursMin];
  }
  return search as unknown as GameSearch;
}

type Answer = Awaited<ReturnType<typeof searchGames>>;

/** The same rows and page, the copy's total counted up to the database's cap. */
function expectSameAnswer(found: Answer, expected: Answer, label: string): void {
  expect(found.rows, label).to.deep.equal(expected.rows);
  expect({ ...found.page, total_items: Math.min(found.page.total_items, TOTAL_CAP) }, label).to.deep.equal(
    expected.page,
  );
}

describe("the catalog's copy in memory", () => {
  useCleanDatabase();
  let copy: CatalogSnapshot;

  before(async function () {
    this.timeout(60_000);
    const random = seededRandom(20261126);
    const games = Array.from({ length: 3000 }, (_, n) => randomGame(random, n));
    for (let at = 0; at < games.length; at += 500) await db()('games').insert(games.slice(at, at + 500));
    copy = await readCatalogSnapshot(db());
  });

  it('draws every filter of the search schema (a new parameter needs its generator here)', () => {
    const random = seededRandom(1);
    const properties = gameSearchQuery.properties as Record<string, SchemaObject>;
    for (const [name, schema] of Object.entries(properties)) {
      if (!NOT_IN_MEMORY.has(name)) expect(() => randomValue(random, name, schema), name).not.to.throw();
    }
  });

  it('gives the page and total the database gives, for 2,500 generated browses over four days', async function () {
    this.timeout(120_000);
    const random = seededRandom(7);
    // Month ends (three months on from 30 November is 28 February) and a leap year's.
    const days = [TODAY, '2026-11-30', '2027-01-31', '2023-11-30'];
    let compared = 0;
    for (let n = 0; n < 2500; n += 1) {
      const search = randomSearch(random);
      const today = days[n % days.length];
      expect(answersInMemory(search)).to.equal(true);
      const expected = await searchDatabaseOnly(search, today);
      const window = pageWindow(search.page, GAME_PAGE);
      const found = walk(copy, gameFilters(copy, search, today), search.sort ?? 'popular', window);
      const label = `${JSON.stringify(search)} on ${today}`;
      // The copy counts every match; the database up to its cap.
      expect(Math.min(found.total, TOTAL_CAP), label).to.equal(expected.page.total_items);
      expect(found.ids, label).to.deep.equal(expected.rows.map((row) => row.id));
      compared += found.ids.length;
    }
    // The searches find games, not only empty pages.
    expect(compared).to.be.greaterThan(10_000);
  });

  it('gives the same deep pages and totals when the database reads them in one walk', async () => {
    // Past half the count's cap with no total known, the database numbers the matches up to the cap in
    // the order and slices the page from them (game-pages.ts, deepPageWithTotal).
    const every = { obscure: 1 as const, types: GAME_TYPES };
    const searches: GameSearch[] = [
      ...GAME_SORTS.flatMap((sort) => [60, 100].map((page) => ({ page, sort, ...every }))),
      { page: 55, sort: 'name', ...every, hideCancelled: 1 },
      { page: 54, sort: 'votes', ...every, genres: IDS.slice(0, 6) },
      // Fewer matches than the page's offset: an empty page, with the total.
      { page: 80, sort: 'hype', ...every, demo: 1 },
    ];
    let deep = 0;
    for (const search of searches) {
      const window = pageWindow(search.page, GAME_PAGE);
      const expected = walk(copy, gameFilters(copy, search, TODAY), search.sort!, window);
      const found = await searchDatabaseOnly(search, TODAY);
      expect(found.page.total_items, JSON.stringify(search)).to.equal(Math.min(expected.total, TOTAL_CAP));
      expect(
        found.rows.map((row) => row.id),
        JSON.stringify(search),
      ).to.deep.equal(expected.ids);
      if (expected.ids.length > 0) deep += 1;
    }
    expect(deep).to.be.at.least(GAME_SORTS.length * 2);
  });

  it('answers searchGames from the copy with the rows the database reads', async () => {
    await readCatalogCopy(db());
    const random = seededRandom(11);
    for (let n = 0; n < 200; n += 1) {
      const search = randomSearch(random);
      const window = pageWindow(search.page, GAME_PAGE);
      const found = await browseFromCopy(db(), search, window, TODAY);
      expect(found, JSON.stringify(search)).not.to.equal(null);
      const label = JSON.stringify(search);
      expectSameAnswer(await searchGames(db(), search, null, TODAY), await searchDatabaseOnly(search, TODAY), label);
    }
  });

  it('gives what the database gives for texts too short for the name index, with any filters', async function () {
    this.timeout(120_000);
    await readCatalogCopy(db());
    const random = seededRandom(13);
    let fromCopy = 0;
    for (let n = 0; n < 800; n += 1) {
      const search = { ...randomSearch(random), q: random.pick(SHORT_TEXTS) };
      if (random.chance(0.5)) delete search.sort;
      const window = pageWindow(search.page, GAME_PAGE);
      if (await textFromCopy(db(), search, search.q!, window, TODAY)) fromCopy += 1;
      searchTotals.clear();
      const label = JSON.stringify(search);
      expectSameAnswer(await searchGames(db(), search, null, TODAY), await searchDatabaseOnly(search, TODAY), label);
    }
    // Every text is answered from the copy, punctuation alone ("!!") too.
    expect(fromCopy).to.equal(800);
  });

  it('refuses a range whose ends are reversed before the copy is asked, as without it', async () => {
    await readCatalogCopy(db());
    for (const [search, field] of [
      [{ page: 1, yearFrom: 2001, yearTo: 2000 }, 'yearFrom'],
      [{ page: 1, hoursMin: 40, hoursMax: 10, obscure: 1 }, 'hoursMin'],
      [{ page: 1, q: 'ko', yearFrom: 2030, yearTo: 1990 }, 'yearFrom'],
    ] as Array<[GameSearch, string]>) {
      const refused = await searchGames(db(), search, null, TODAY).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isApiError(refused), JSON.stringify(search)).to.equal(true);
      const { status, code, members } = refused as ApiError;
      expect([status, code, members.field]).to.deep.equal([400, 'invalid_request', field]);
    }
  });

  it('leaves an engine and the reader’s own library to the database, with a text or without', async () => {
    await readCatalogCopy(db());
    const window = { limit: 24, offset: 0 };
    const searches: Array<Partial<GameSearch>> = [{ engines: ['Unity'] }, { played: 1 }, { hideIgnored: 1 }];
    for (const search of searches) {
      const label = JSON.stringify(search);
      expect(await browseFromCopy(db(), { page: 1, ...search }, window, TODAY), label).to.equal(null);
      expect(await textFromCopy(db(), { page: 1, ...search }, 'alpha', window, TODAY), label).to.equal(null);
    }
    // A text is the copy's text search; a blank one, a browse.
    expect(await browseFromCopy(db(), { page: 1, q: 'alpha' }, window, TODAY)).to.equal(null);
    expect(await textFromCopy(db(), { page: 1 }, 'alpha', window, TODAY)).not.to.equal(null);
    expect(await browseFromCopy(db(), { page: 1, q: '  ' }, window, TODAY)).not.to.equal(null);
  });

  it('reads the copy in a worker thread, and answers from the database when that read fails', async function () {
    this.timeout(30_000);
    const copy = await readCatalogSnapshotOffThread(db());
    const here = await readCatalogSnapshot(db());
    expect(copy.size).to.equal(here.size);
    expect(copy.version).to.equal(here.version);
    expect(copy.titles.names).to.equal(here.titles.names);
    expect([...copy.titles.wordGames]).to.deep.equal([...here.titles.wordGames]);
    expect([...copy.orders.rating]).to.deep.equal([...here.orders.rating]);
    // A server that refuses the thread's connection: no copy, and the database answers until a later read.
    const away = createKnex('postgres://postgres@127.0.0.1:1/jogatina', 1);
    try {
      const failed = await readCatalogSnapshotOffThread(away).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(failed).to.match(/^catalog copy: .*ECONNREFUSED/);
      expect(await readCatalogCopy(away)).to.equal(null);
      expect(catalogCopyInHand(away)).to.equal(null);
    } finally {
      await away.destroy();
    }
  });

  it('sends a browse to the database once the games change, until the copy is read again', async () => {
    await readCatalogCopy(db());
    const search: GameSearch = { page: 1, sort: 'popular', obscure: 1 };
    const window = pageWindow(1, GAME_PAGE);
    const before = await browseFromCopy(db(), search, window, TODAY);
    expect(before).not.to.equal(null);
    // The last game of the page becomes the most popular of all.
    const last = before!.rows[before!.rows.length - 1].id;
    await db()('games').where({ id: last }).update({ popularity: 1000 });
    expect(await browseFromCopy(db(), search, window, TODAY)).to.equal(null);
    const fresh = await searchGames(db(), search, null, TODAY);
    expect(fresh.rows[0].id).to.equal(last);
    await readCatalogCopy(db());
    const after = await browseFromCopy(db(), search, window, TODAY);
    expect(after!.rows.map((row) => row.id)).to.deep.equal(fresh.rows.map((row) => row.id));
  });
});
