// Runs catalog tests both ways GET /games can be answered: by the database (what answers while a web
// process reads its copy) and by the web process's copy in memory (shared/catalog/copy-*.ts). Each test
// checks that every search it made was answered the way it names, so a copy that fell back to the
// database unnoticed fails the test.
import { expect } from 'chai';
import { catalogCopyInHand, readCatalogCopy, useCatalogCopy } from '../../shared/catalog/copy-browse.js';
import { catalogAnswers, searchGames, searchTotals } from '../../shared/catalog/game-search.js';
import type { GameSearch } from '../../shared/catalog/search-parameters.js';
import { db } from '../../shared/platform/db/knex.js';

export type CatalogWay = 'database' | 'copy';

let current: CatalogWay = 'database';

/**
 * After a test changes the games: the copy is read again when the copy is the way under test (the
 * database answers until then).
 */
export async function catalogChanged(): Promise<void> {
  if (current !== 'copy') return;
  const { rows } = await db().raw<{ rows: Array<{ version: string }> }>('SELECT version FROM catalog_state');
  if (catalogCopyInHand(db())?.version !== Number(rows[0].version)) await readCatalogCopy(db());
}

export function eachCatalogWay(define: (way: CatalogWay) => void): void {
  for (const way of ['database', 'copy'] as const) {
    describe(way === 'copy' ? "answered by the web process's copy" : 'answered by the database', () => {
      let before = { ...catalogAnswers };
      beforeEach(async () => {
        current = way;
        useCatalogCopy(way === 'copy');
        await catalogChanged();
        before = { ...catalogAnswers };
      });
      afterEach(function () {
        useCatalogCopy(true);
        current = 'database';
        if (this.currentTest?.state !== 'passed') return;
        const other = way === 'copy' ? 'database' : 'copy';
        expect(catalogAnswers[other] - before[other], `searches the ${other} answered`).to.equal(0);
        expect(catalogAnswers[way] - before[way], `searches the ${way} answered`).to.be.greaterThan(0);
      });
      define(way);
    });
  }
}

/** A public search as the database alone answers it (no copy, no remembered total), to compare with the copy. */
export async function searchDatabaseOnly(search: GameSearch, today: string) {
  useCatalogCopy(false);
  try {
    searchTotals.clear();
    return await searchGames(db(), search, null, today);
  } finally {
    useCatalogCopy(true);
  }
}
