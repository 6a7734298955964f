// The demo catalog loaded into the database: a sample of the real titles with their facet rows, a repeat
// that changes nothing, and an expansion past the titles that gives exactly the count asked.
import { expect } from 'chai';
import { readGametimeTitles, type DemoTitle } from '../../db/seeds/catalog/gametime-titles.js';
import { loadDemoCatalog } from '../../db/seeds/catalog/load-demo-catalog.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';

/** Every stored column but the ids and timestamps, as one digest: equal digests, equal catalogs. */
async function catalogDigest(): Promise<string> {
  const { rows } = await db().raw<{ rows: Array<{ digest: string }> }>(
    "SELECT md5(string_agg((to_jsonb(g) - 'id' - 'created_at' - 'updated_at')::text, '' ORDER BY g.slug)) AS digest FROM games g",
  );
  return rows[0].digest;
}

const count = async (table: string) => Number((await db()(table).count({ n: '*' }))[0].n);

describe('demo catalog load', () => {
  let titles: DemoTitle[];

  before(async () => {
    titles = await readGametimeTitles();
  });

  describe('a sample of the real titles', () => {
    useCleanDatabase();

    it('loads 2000 games with their facets; a repeat changes nothing', async () => {
      const progress: number[] = [];
      const first = await loadDemoCatalog(db(), {
        games: 2000,
        titles,
        onProgress: (p) => progress.push(p.games),
      });
      expect(first).to.include({ titles: titles.length, games: 2000, inserted: 2000 });
      expect(progress).to.deep.equal([1000, 2000]);
      expect(await count('games')).to.equal(2000);
      expect(await count('catalog_genres')).to.equal(22);
      expect(await count('catalog_platforms')).to.be.greaterThan(10);

      // Every facet id a game names has its row.
      const { rows: orphans } = await db().raw(`
        SELECT g.slug FROM games g
         WHERE EXISTS (SELECT 1 FROM unnest(g.platform_ids) p WHERE p NOT IN (SELECT id FROM catalog_platforms))
            OR EXISTS (SELECT 1 FROM unnest(g.developer_ids || g.publisher_ids) c
                        WHERE c NOT IN (SELECT id FROM catalog_companies))
            OR EXISTS (SELECT 1 FROM unnest(g.genre_ids) x WHERE x NOT IN (SELECT id FROM catalog_genres))
            OR EXISTS (SELECT 1 FROM unnest(g.series_ids) s WHERE s NOT IN (SELECT id FROM catalog_series))`);
      expect(orphans).to.deep.equal([]);

      const before = await catalogDigest();
      const facets = await count('catalog_companies');
      const again = await loadDemoCatalog(db(), { games: 2000, titles });
      expect(again).to.include({ games: 2000, inserted: 0 });
      expect(await catalogDigest()).to.equal(before);
      expect(await count('catalog_companies')).to.equal(facets);
    });
  });

  describe('past the real titles', () => {
    useCleanDatabase();

    it('gives exactly the count asked, with unique slugs, and adds only the rest to a smaller load', async () => {
      const few = titles.slice(0, 150);
      expect((await loadDemoCatalog(db(), { games: 600, titles: few })).inserted).to.equal(600);
      const done = await loadDemoCatalog(db(), { games: 1500, titles: few });
      expect(done).to.include({ titles: 150, games: 1500, inserted: 900 });
      const [row] = await db()('games').select(
        db().raw('count(*)::int AS games'),
        db().raw('count(DISTINCT slug)::int AS slugs'),
        db().raw('count(*) FILTER (WHERE type = 0)::int AS main'),
      );
      expect(row).to.deep.equal({ games: 1500, slugs: 1500, main: row.main });
      expect(row.main).to.be.greaterThan(750);
    });
  });
});
