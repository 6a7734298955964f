// After migrations run, a table a migration rewrote (no page marked all-visible) is vacuumed, so the
// index-only walks read by the catalog and the feed do not fetch every row until autovacuum comes.
import { expect } from 'chai';
import { vacuumRewritten } from '../../shared/platform/db/migrations.js';
import { db } from '../../shared/platform/db/knex.js';

describe('the vacuum after migrations', () => {
  const pages = async (table: string) =>
    (await db().raw('SELECT relpages, relallvisible FROM pg_class WHERE oid = ?::regclass', [table])).rows[0] as {
      relpages: number;
      relallvisible: number;
    };

  after(() => db().raw('DROP TABLE IF EXISTS vacuum_probe_large, vacuum_probe_small'));

  it('vacuums a large table with no page marked all-visible, and leaves a small one', async function () {
    this.timeout(60_000);
    // About 1,200 pages: a rewrite's table as a migration leaves it (counted, nothing marked).
    await db().raw(
      "CREATE TABLE vacuum_probe_large AS SELECT n, repeat('x', 40) AS filler FROM generate_series(1, 150000) n",
    );
    await db().raw('CREATE TABLE vacuum_probe_small AS SELECT n FROM generate_series(1, 100) n');
    await db().raw('ANALYZE vacuum_probe_large, vacuum_probe_small');
    const before = await pages('vacuum_probe_large');
    expect(before.relpages).to.be.at.least(1000);
    expect(before.relallvisible).to.equal(0);
    await vacuumRewritten(db());
    const after = await pages('vacuum_probe_large');
    expect(after.relallvisible).to.equal(after.relpages);
    expect((await pages('vacuum_probe_small')).relallvisible).to.equal(0);
  });
});
