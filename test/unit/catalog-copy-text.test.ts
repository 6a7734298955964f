// The catalog's copy answers a text (`q`) exactly as the database does (shared/catalog/copy-text.ts against
// game-text-search.ts): over 3,600 games whose names hold a word in nearly every name (so a text can be
// common), franchise words, accents, punctuation, numbers, short names and names shared by several games,
// thousands of generated texts of every shape people type (words, fragments inside words, misspellings of
// one and two edits, words in any order, phrases with stop words, short words, punctuation alone), each
// with and without filters, in every sort and the text's own ranking, on any page, must give the same page
// both ways, and the same total up to the database's cap (the copy counts past it).
import { expect } from 'chai';
import { searchGames, TOTAL_CAP } from '../../shared/catalog/game-search.js';
import { GAME_PAGE } from '../../shared/catalog/game-pages.js';
import { readCatalogCopy, textFromCopy } from '../../shared/catalog/copy-browse.js';
import { GAME_SORTS, type GameSearch } from '../../shared/catalog/search-parameters.js';
import { db } from '../../shared/platform/db/knex.js';
import { pageWindow } from '../../shared/platform/paging/paging.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { searchDatabaseOnly } from '../helpers/catalog-ways.js';
import { seededRandom, type SeededRandom } from '../helpers/seeded-random.js';

const TODAY = '2026-11-28';
/** In nearly every name: past COMMON_TEXT (3,000 names), where a text ranks by popularity. */
const EVERYWHERE = ['Legend', 'Legends', 'legendary'];
const WORDS = [
  'Dragon',
  'Quest',
  'Star',
  'Wars',
  'Mario',
  'Kart',
  'Zelda',
  'Pokémon',
  'Ōkami',
  'Émile',
  'ñu',
  'Half-Life',
  'R2-D2',
  '(Kai)',
  'k!',
  'A',
  'of',
  'the',
  'II',
  'Aristocrat',
  'Stormlord',
  'Historyline',
  'Warriors',
  'Kingdom',
  'Ancient',
  'Mysterious',
];
/** Names several games share, and names as short as a text. */
/**
 * Names several games share, and names as short as a text. "Leg" is a rare word inside a common one: a
 * misspelling corrected to it ("legx") matches most names by a count that says it is rare.
 */
const SHARED_NAMES = ['Dragon Quest', 'Legend', 'Star Wars', 'Ko', 'A', '!!!', '???', 'ñu', 'k!', 'Leg'];
const STOP_WORDS = ['the', 'of', 'and', 'a', 'in', 'to'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function gameName(random: SeededRandom, n: number): string {
  if (random.chance(0.04)) return random.pick(SHARED_NAMES);
  const words = Array.from({ length: random.int(1, 4) }, () => random.pick(WORDS));
  if (random.chance(0.9)) words.splice(random.int(0, words.length), 0, random.pick(EVERYWHERE));
  const separator = random.pick([' ', ' ', ' ', ': ', ' - ', '  ']);
  return `${words.join(separator)}${random.chance(0.5) ? ` ${n % 97}` : ''}`;
}

function randomGame(random: SeededRandom, n: number): Record<string, unknown> {
  const { int, chance, pick, some } = random;
  return {
    slug: `text-game-${n}`,
    name: gameName(random, n),
    igdb_id: 600000 + n,
    type: chance(0.1) ? null : pick([0, 1, 2, 8, 9, 10]),
    status: pick(['released', 'beta', 'cancelled', 'rumored']),
    release_date: chance(0.8) ? `${int(1980, 2030)}-0${int(1, 9)}-1${int(0, 9)}` : null,
    platform_ids: some([1, 2, 3, 5], 2),
    genre_ids: some([1, 2, 3, 5, 8], 3),
    interface_languages: some(['en', 'ja', 'pt'], 2),
    rating_count: chance(0.5) ? 0 : int(1, 40),
    weighted_rating: chance(0.4) ? null : int(0, 100),
    // Ties, so the orders' tie on id counts too.
    popularity: chance(0.3) ? 0 : int(1, 30) / 2,
    trending: chance(0.5) ? 0 : int(1, 10),
    hype: chance(0.7) ? 0 : int(1, 20),
    demo_available: chance(0.2),
  };
}

/** One or two typos: a letter dropped, doubled, swapped with the next or replaced. */
function misspell(random: SeededRandom, word: string, edits: number): string {
  let typed = word;
  for (let edit = 0; edit < edits && typed.length >= 3; edit += 1) {
    const at = random.int(1, typed.length - 2);
    typed = random.pick([
      () => typed.slice(0, at) + typed.slice(at + 1),
      () => typed.slice(0, at) + typed[at] + typed.slice(at),
      () => typed.slice(0, at) + typed[at + 1] + typed[at] + typed.slice(at + 2),
      () => typed.slice(0, at) + random.pick([...LETTERS]) + typed.slice(at + 1),
    ])();
  }
  return typed;
}

const anyCase = (random: SeededRandom, text: string) => random.pick([text, text.toLowerCase(), text.toUpperCase()]);

/** What people type: each shape drawn from the names' own words. */
function randomText(random: SeededRandom): string {
  const { pick, int, chance } = random;
  const word = () => pick([...WORDS, ...EVERYWHERE]);
  const shapes: Array<() => string> = [
    () => anyCase(random, word()),
    () => word().slice(0, int(1, 5)),
    () => {
      const whole = word();
      const from = int(0, Math.max(0, whole.length - 3));
      return whole.slice(from, from + int(3, 5));
    },
    () => misspell(random, word().toLowerCase(), 1),
    () => misspell(random, word().toLowerCase(), 2),
    () => `${word()} ${word()}`,
    () => `${misspell(random, word(), 1)} ${word()} ${word()}`,
    () => Array.from({ length: 8 }, word).join(' '),
    () => {
      const words: string[] = [];
      while (words.join(' ').length < 70) words.push(chance(0.4) ? pick(STOP_WORDS) : word());
      return words.join(' ').slice(0, 80).trim();
    },
    () => gameName(random, int(0, 200)).slice(0, int(3, 30)),
    () => pick(['!!!', '???', '!!', '%', '_', 'ff 7', 'a b', 'k!', '(k', 'ii 2', 'ab!', 'r2-', '-d2', 'ñ', 'ō']),
    () => pick(['legx', 'lgeg', 'leg', 'legx quest']),
    () => Array.from({ length: int(4, 9) }, () => pick([...LETTERS])).join(''),
    () => String(int(0, 99)),
  ];
  return pick(shapes)();
}

const FILTERS: Array<(random: SeededRandom) => Partial<GameSearch>> = [
  (random) => ({ platforms: [random.pick([1, 2, 3, 5])] }),
  (random) => ({ genres: [random.pick([1, 2, 3]), random.pick([5, 8])], genresMode: random.pick(['any', 'all']) }),
  (random) => ({ types: [random.pick([0, 1, 8])] }),
  () => ({ hideCancelled: 1 }),
  () => ({ demo: 1 }),
  () => ({ rated: 1 }),
  (random) => ({ yearFrom: random.int(1980, 2000), yearTo: random.int(2001, 2030) }),
  (random) => ({ language: [random.pick(['en', 'ja', 'pt'])] }),
  () => ({ release: 'upcoming' }),
];

function randomSearch(random: SeededRandom): GameSearch {
  const search: Record<string, unknown> = {
    q: randomText(random),
    page: random.chance(0.8) ? random.int(1, 3) : random.int(4, 100),
  };
  if (random.chance(0.5)) search.sort = random.pick(GAME_SORTS);
  for (const filter of random.some(FILTERS, 2)) Object.assign(search, filter(random));
  return search as unknown as GameSearch;
}

describe("the catalog's copy in memory, for a text", () => {
  useCleanDatabase();

  before(async function () {
    this.timeout(60_000);
    const random = seededRandom(20261128);
    const games = Array.from({ length: 3600 }, (_, n) => randomGame(random, n));
    for (let at = 0; at < games.length; at += 600) await db()('games').insert(games.slice(at, at + 600));
    await db().raw('ANALYZE games, catalog_title_words');
    await readCatalogCopy(db());
  });

  it('gives the page the database gives, and its total up to the cap, for 1,500 generated texts', async function () {
    this.timeout(300_000);
    const random = seededRandom(44);
    const seen = { rows: 0, empty: 0, pastCap: 0, ranked: 0 };
    for (let n = 0; n < 1500; n += 1) {
      const search = randomSearch(random);
      const label = JSON.stringify(search);
      const copied = await textFromCopy(db(), search, search.q!.trim(), pageWindow(search.page, GAME_PAGE), TODAY);
      expect(copied, label).not.to.equal(null);
      const expected = await searchDatabaseOnly(search, TODAY);
      const found = await searchGames(db(), search, null, TODAY);
      expect(
        found.rows.map((row) => row.id),
        label,
      ).to.deep.equal(expected.rows.map((row) => row.id));
      expect(Math.min(found.page.total_items, TOTAL_CAP), label).to.equal(expected.page.total_items);
      expect({ ...found.page, total_items: 0 }, label).to.deep.equal({ ...expected.page, total_items: 0 });
      seen.rows += found.rows.length;
      if (found.page.total_items === 0) seen.empty += 1;
      if (found.page.total_items > TOTAL_CAP) seen.pastCap += 1;
      if (!search.sort && found.rows.length > 1) seen.ranked += 1;
    }
    // The texts find games, some match nothing, some are common past the cap, many rank by the text.
    expect(seen.rows).to.be.greaterThan(8_000);
    expect(seen.empty).to.be.greaterThan(50);
    expect(seen.pastCap).to.be.at.least(10);
    expect(seen.ranked).to.be.greaterThan(150);
  });

  it('counts every match of a common text, and never a page past the last that can be asked', async () => {
    const found = await searchGames(db(), { q: 'legend', page: 1 }, null, TODAY);
    const { rows } = await db().raw<{ rows: Array<{ n: number }> }>(
      "SELECT count(*)::int AS n FROM games WHERE name_folded LIKE '%legend%'",
    );
    expect(rows[0].n).to.be.greaterThan(TOTAL_CAP);
    expect(found.page).to.deep.equal({ number: 1, size: 24, total_items: rows[0].n, total_pages: 100, has_more: true });
    const last = await searchGames(db(), { q: 'legend', page: 100 }, null, TODAY);
    expect(last.page).to.include({ total_pages: 100, has_more: false });
    expect(last.rows).to.have.length(24);
  });

  it('ranks a correction that is rare as a word but inside most names, deep pages too', async () => {
    // "legx" is corrected to "leg", a word of few names, found inside "legend" in most: ranked, not common.
    for (const page of [1, 2, 42, 43, 60, 100]) {
      const search: GameSearch = { q: 'legx', page };
      const found = await searchGames(db(), search, null, TODAY);
      const expected = await searchDatabaseOnly(search, TODAY);
      expect(found.rows.length, `page ${page}`).to.equal(24);
      expect(
        found.rows.map((row) => row.id),
        `page ${page}`,
      ).to.deep.equal(expected.rows.map((row) => row.id));
    }
  });

  it('folds an accented text as the database does', async () => {
    for (const q of ['Pokémon', 'POKÉMON', 'Ōkami', 'ÉMILE', 'ñu']) {
      const search: GameSearch = { q, page: 1 };
      const found = await searchGames(db(), search, null, TODAY);
      expect(found.rows.length, q).to.be.greaterThan(0);
      expect(
        found.rows.map((row) => row.id),
        q,
      ).to.deep.equal((await searchDatabaseOnly(search, TODAY)).rows.map((row) => row.id));
    }
  });
});
