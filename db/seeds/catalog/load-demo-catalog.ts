// Loads the demo catalog: the real titles of `gametime-db` as their source has them (enrich.ts), and
// made-up follow-ups past them, named as synthetic. One transaction, so an interrupted first start leaves
// an empty catalog that the next start loads again; rows go in multi-row inserts that skip existing slugs, so
// loading again (or a larger count after a smaller one) only adds what is missing.
import type { Knex } from 'knex';
import { analyzeCatalog } from '../../../shared/catalog/title-words.js';
import { DemoCatalog, type DemoGameRow } from './enrich.js';
import type { FacetBook } from './facets.js';
import { readGametimeTitles, type DemoTitle } from './gametime-titles.js';

// About 45 columns a row: 1000 rows stay under PostgreSQL's 65,535 bind parameters a statement.
const BATCH = 1000;

export interface DemoLoadProgress {
  /** Rows handled so far, inserted or already there. */
  games: number;
  inserted: number;
  total: number;
}

/**
 * Made-up follow-ups loaded beside the real titles by default: the real ones carry no genres, ratings or
 * popularity (their source has none), so these are what the catalog's filters and sorts show in a demo.
 */
export const DEFAULT_SYNTHETIC = 10_000;

export interface DemoLoadOptions {
  /**
   * How many games; default: the real titles and DEFAULT_SYNTHETIC follow-ups. More expands with
   * follow-ups, fewer takes a sample of the real titles.
   */
  games?: number;
  /** The titles to start from (tests pass a few); default: every title of the package. */
  titles?: DemoTitle[];
  onProgress?: (progress: DemoLoadProgress) => void;
}

export interface DemoLoadResult {
  /** Real titles the catalog started from. */
  titles: number;
  games: number;
  inserted: number;
  facets: number;
}

async function writeFacets(trx: Knex.Transaction, book: FacetBook): Promise<void> {
  for (const [table, rows] of book.takePending()) {
    for (let start = 0; start < rows.length; start += BATCH) {
      await trx(table)
        .insert(rows.slice(start, start + BATCH))
        .onConflict('id')
        .ignore();
    }
  }
}

async function writeGames(trx: Knex.Transaction, rows: DemoGameRow[]): Promise<number> {
  const inserted = await trx('games').insert(rows).onConflict('slug').ignore().returning('id');
  return inserted.length;
}

export async function loadDemoCatalog(knex: Knex, options: DemoLoadOptions = {}): Promise<DemoLoadResult> {
  const titles = options.titles ?? (await readGametimeTitles());
  const total = options.games ?? titles.length + DEFAULT_SYNTHETIC;
  if (!Number.isInteger(total) || total < 0) throw new Error(`games must be a whole number, not ${total}`);
  if (titles.length === 0 && total > 0) throw new Error('no titles to build games from');
  const catalog = new DemoCatalog(titles);
  const progress: DemoLoadProgress = { games: 0, inserted: 0, total };

  await knex.transaction(async (trx) => {
    // The next batch is built while the previous one is written: one statement in flight at a time.
    let writing: Promise<void> = Promise.resolve();
    let batch: DemoGameRow[] = [];
    const send = async () => {
      const rows = batch;
      batch = [];
      await writing;
      writing = (async () => {
        await writeFacets(trx, catalog.facets);
        progress.inserted += await writeGames(trx, rows);
        progress.games += rows.length;
        options.onProgress?.({ ...progress });
      })();
      // A failure surfaces at the next await of `writing`; until then it must not count as unhandled.
      writing.catch(() => undefined);
    };
    for (const row of catalog.games(total)) {
      batch.push(row);
      if (batch.length >= BATCH) await send();
    }
    if (batch.length > 0) await send();
    await writing;
    await writeFacets(trx, catalog.facets);
  });
  await analyzeCatalog(knex);
  return { titles: titles.length, games: progress.games, inserted: progress.inserted, facets: catalog.facets.size() };
}
