// The catalog's copy is never older than the database: the catalog's version (migration catalog_version)
// moves with every committed change to the games, a browse that reads another version goes to the database,
// and a browse starts a new read of the copy at most every 10 seconds.
import { expect } from 'chai';
import { searchGames } from '../../shared/catalog/game-search.js';
import { GAME_PAGE } from '../../shared/catalog/game-pages.js';
import { browseFromCopy, catalogCopyInHand, readCatalogCopy } from '../../shared/catalog/copy-browse.js';
import type { GameSearch } from '../../shared/catalog/search-parameters.js';
import { db } from '../../shared/platform/db/knex.js';
import { pageWindow } from '../../shared/platform/paging/paging.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { until } from '../helpers/wait.js';

const TODAY = '2026-11-26';

describe("reading the catalog's copy again", () => {
  useCleanDatabase();
  const search: GameSearch = { page: 1, obscure: 1 };
  const window = pageWindow(1, GAME_PAGE);

  it('is started by a browse at most every 10 seconds, the database answering meanwhile', async () => {
    await db()('games').insert({ slug: 'again-1', name: 'Again', igdb_id: 920001, type: 0, popularity: 1 });
    await readCatalogCopy(db());
    expect(await browseFromCopy(db(), search, window, TODAY)).not.to.equal(null);
    await db()('games').insert({ slug: 'again-2', name: 'Again 2', igdb_id: 920002, type: 0, popularity: 2 });
    // The version moved: the database answers, and the read just made is too recent to make another.
    expect(await browseFromCopy(db(), search, window, TODAY)).to.equal(null);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(catalogCopyInHand(db())).to.equal(null);
    const now = Date.now;
    Date.now = () => now() + 11_000;
    try {
      expect(await browseFromCopy(db(), search, window, TODAY)).to.equal(null);
      await until(async () => catalogCopyInHand(db()));
    } finally {
      Date.now = now;
    }
    const found = await browseFromCopy(db(), search, window, TODAY);
    expect(found!.rows.map((row) => row.slug)).to.deep.equal(['again-2', 'again-1']);
  });

  it('fails without the version row and leaves browsing to the database', async () => {
    const { version } = await db()('catalog_state').first('version');
    await db()('catalog_state').delete();
    try {
      expect(await readCatalogCopy(db())).to.equal(null);
      expect(await browseFromCopy(db(), search, window, TODAY)).to.equal(null);
      expect((await searchGames(db(), search, null, TODAY)).rows.map((row) => row.slug)).to.include('again-1');
    } finally {
      // On from where it was, so no copy read before is taken for current.
      await db()('catalog_state').insert({ version: Number(version) + 1 });
    }
  });
});

describe("the catalog's version", () => {
  useCleanDatabase();
  const version = async () => Number((await db()('catalog_state').first('version')).version);

  it('grows with each statement that changes a game, and only then', async () => {
    const start = await version();
    const [{ id }] = await db()('games').insert({ slug: 'v-1', name: 'V', igdb_id: 900001 }).returning('id');
    expect(await version()).to.equal(start + 1);
    // catalog.stats when no count moved: a statement that touches no game.
    await db()('games').where({ id: -1 }).update({ popularity: 1 });
    await db()('games').where({ id: -1 }).delete();
    expect(await version()).to.equal(start + 1);
    await db()('games').where({ id }).update({ popularity: 5 });
    expect(await version()).to.equal(start + 2);
    await db()('games').where({ id }).delete();
    expect(await version()).to.equal(start + 3);
    await db().raw('TRUNCATE games CASCADE');
    expect(await version()).to.equal(start + 4);
  });

  it('moves with the change it counts: a rolled-back change leaves it', async () => {
    const start = await version();
    await db()
      .transaction(async (trx) => {
        await trx('games').insert({ slug: 'v-2', name: 'V', igdb_id: 900002 });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await version()).to.equal(start);
  });
});
