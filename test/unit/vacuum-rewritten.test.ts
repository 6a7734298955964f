// After migrations run, a table a migration rewrote (no page marked all-visible) is vacuumed, so the
// index-only walks read by the catalog and the feed do not fetch every row until autovacuum comes.
import { expect } from 'chai';
import { vacuumRewritten } from '../../shared/platform/db/migrations.js';
import { db } from '../../shared/platform/db/knex.js';
import { until } from '../helpers/wait.js';

describe('the vacuum after migrations', () => {
  const pages = async (table: string) =>
    (await db().raw('SELECT relpages, relallvisible FROM pg_class WHERE oid = ?::regclass', [table])).rows[0] as {
      relpages: number;
      relallvisible: number;
    };
  // Manual VACUUMs only (autovacuum keeps a count of its own, and is off for these tables). Counted, not
  // judged by the pages marked: a page whose rows a concurrent test's snapshot may not see yet stays unmarked.
  const vacuums = async (table: string) =>
    Number(
      (await db().raw('SELECT vacuum_count FROM pg_stat_user_tables WHERE relid = ?::regclass', [table])).rows[0]
        .vacuum_count,
    );

  after(() => db().raw('DROP TABLE IF EXISTS vacuum_probe_large, vacuum_probe_small'));

  it('vacuums a large table with no page marked all-visible, and leaves a small one', async function () {
    this.timeout(60_000);
    // About 1,400 pages: a rewritten table as a migration leaves it (counted, nothing marked).
    await db().raw(`CREATE TABLE vacuum_probe_large WITH (autovacuum_enabled = false) AS
      SELECT n, repeat('x', 40) AS filler FROM generate_series(1, 150000) n`);
    await db().raw(`CREATE TABLE vacuum_probe_small WITH (autovacuum_enabled = false) AS
      SELECT n FROM generate_series(1, 100) n`);
    await db().raw('ANALYZE vacuum_probe_large, vacuum_probe_small');
    const before = await pages('vacuum_probe_large');
    expect(before.relpages).to.be.at.least(1000);
    expect(before.relallvisible).to.equal(0);
    expect(await vacuums('vacuum_probe_large')).to.equal(0);
    await vacuumRewritten(db());
    await until(async () => (await vacuums('vacuum_probe_large')) === 1);
    expect(await vacuums('vacuum_probe_small')).to.equal(0);
  });
});
