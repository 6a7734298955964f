// A browse by `language` walks an order's index testing the game's bits of base languages (migration
// catalog_language_bits) where a base has one, and the arrays where it does not (a region's code, a base
// without a bit): both ways must find the games the arrays name, on pages the walk reaches, which needs
// more matches than the count's cap. The copy in memory (tested against the database elsewhere) is the
// reference here: it reads the arrays themselves.
import { expect } from 'chai';
import { walk } from '../../shared/catalog/copy-walk.js';
import { gameFilters } from '../../shared/catalog/copy-filters.js';
import { readCatalogSnapshot } from '../../shared/catalog/copy-indexes.js';
import { GAME_PAGE, searchGames, searchTotals, TOTAL_CAP } from '../../shared/catalog/game-search.js';
import { useCatalogCopy } from '../../shared/catalog/copy-browse.js';
import { GAME_SORTS, type GameSearch } from '../../shared/catalog/search-parameters.js';
import { db } from '../../shared/platform/db/knex.js';
import { pageWindow } from '../../shared/platform/paging/paging.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { seededRandom } from '../helpers/seeded-random.js';

const TODAY = '2026-11-26';
/** Each language's share of the games, in one array or another: each common one passes the cap alone. */
const LANGUAGES: Array<[string[], number]> = [
  [['en'], 0.95],
  [['pt', 'pt-BR'], 0.9],
  [['fil'], 0.9],
  [['xx'], 0.9],
  [['ja'], 0.1],
];

describe("the catalog's language bits", () => {
  useCleanDatabase();

  it('gives one bit to each of 62 bases and the last to any other term', async () => {
    const bits = async (terms: string[]) =>
      BigInt((await db().raw('SELECT catalog_language_bits(?::text[]) AS b', [terms])).rows[0].b);
    const other = 1n << 62n;
    expect(await bits([])).to.equal(0n);
    expect(await bits(['en'])).to.equal(1n);
    expect(await bits(['en', 'ja', 'en'])).to.equal(3n);
    for (const term of ['pt-BR', 'xx', 'EN', 'zh-Hans']) expect(await bits([term]), term).to.equal(other);
    const each = new Set<bigint>();
    for (const base of 'en ja de fr es it pt ru zh ko pl nl sv da no nb fi cs hu tr ar he th vi id ms uk el ro bg hr sr sk sl lt lv et ca eu gl is ga fa hi bn ta ur tl fil ka hy az kk uz mn be mk sq af sw nn cy'.split(
      ' ',
    )) {
      const bit = await bits([base]);
      expect(bit & other, base).to.equal(0n);
      each.add(bit);
    }
    expect(each.size).to.equal(62);
  });

  it('walks to the same pages as the arrays name, for bases with a bit and terms without', async function () {
    this.timeout(60_000);
    const { chance } = seededRandom(5);
    const games = Array.from({ length: TOTAL_CAP + 400 }, (_, n) => {
      const arrays: string[][] = [[], [], []];
      for (const [terms, share] of LANGUAGES) if (chance(share)) arrays[n % 3].push(...terms);
      return {
        slug: `bits-${n}`,
        name: `Bits ${n}`,
        igdb_id: 800000 + n,
        type: 0,
        popularity: (n * 7919) % 1000,
        trending: (n * 104729) % 500,
        hype: n % 13,
        rating_count: n % 29,
        release_date: `${1990 + (n % 35)}-0${1 + (n % 9)}-1${n % 9}`,
        interface_languages: arrays[0],
        audio_languages: arrays[1],
        subtitle_languages: arrays[2],
      };
    });
    for (let at = 0; at < games.length; at += 500) await db()('games').insert(games.slice(at, at + 500));
    // A change of the arrays moves the bits with them.
    await db()('games')
      .where({ slug: 'bits-0' })
      .update({ interface_languages: ['ja'], audio_languages: [] });
    const copy = await readCatalogSnapshot(db());
    useCatalogCopy(false);
    try {
      let walked = 0;
      for (const language of ['en', 'pt', 'pt-BR', 'fil', 'xx', 'ja']) {
        for (const sort of GAME_SORTS) {
          for (const page of [1, 40, 100]) {
            const search: GameSearch = { page, sort, language: [language] };
            searchTotals.clear();
            const found = await searchGames(db(), search, null, TODAY);
            const expected = walk(copy, gameFilters(copy, search, TODAY), sort, pageWindow(page, GAME_PAGE));
            const label = JSON.stringify(search);
            // The copy counts every match; the database up to its cap.
            expect(found.page.total_items, label).to.equal(Math.min(expected.total, TOTAL_CAP));
            expect(
              found.rows.map((row) => row.id),
              label,
            ).to.deep.equal(expected.ids);
            if (expected.total >= TOTAL_CAP && found.rows.length > 0) walked += 1;
          }
        }
      }
      // The pages the walk reads: every common language, every order, every page.
      expect(walked).to.equal(5 * GAME_SORTS.length * 3);
    } finally {
      useCatalogCopy(true);
    }
  });
});
