// The collapse window's trigger keeps its plan per connection: planned while the notifications table was
// empty and analyzed so, it must still find the old window by the collapse key's index once the table has
// grown (migration notification_window_plan), not scan every notification on every like.
import { expect } from 'chai';
import pg from 'pg';
import { createKnex } from '../../shared/platform/db/knex.js';
import { migrateLatest } from '../../shared/platform/db/migrations.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

describe("a notification's collapse window, planned while the table was empty", () => {
  let scratch: TestDatabase;
  before(async function () {
    this.timeout(60_000);
    // A database of its own: the shared one's notifications table is never empty.
    scratch = await createTestDatabase(process.env.DATABASE_URL);
    const knex = createKnex(scratch.url, 1);
    await migrateLatest(knex);
    await knex.destroy();
  });
  after(() => scratch.drop());

  it('retires windows through the index once the table has grown', async function () {
    this.timeout(60_000);
    const knex = createKnex(scratch.url, 2);
    // As the web process's prepared pool connects: generic plans only, kept for the connection's life.
    const web = new pg.Client({ connectionString: scratch.url, options: '-c plan_cache_mode=force_generic_plan' });
    await web.connect();
    try {
      await knex.raw(`INSERT INTO accounts (email) SELECT 'p' || n || '@example.test' FROM generate_series(1, 300) n`);
      const ids = (await knex('accounts').orderBy('email').pluck('id')) as string[];
      // Statistics that say empty, as a database analyzed before its first notification has them.
      await knex.raw('ANALYZE notifications');
      const like = (recipient: string, actor: string, key: string) =>
        web.query(
          `INSERT INTO notifications (account_id, kind, actor_id, subject_kind, subject_id, data, collapse_key)
           VALUES ($1, 'like', $2, 'LIST', $3, '{"count": 1}', $3)
           ON CONFLICT (account_id, collapse_key) WHERE collapse_key IS NOT NULL
           DO UPDATE SET data = jsonb_build_object('count', (notifications.data->>'count')::int + 1)`,
          [recipient, actor, `like:LIST:${key}`],
        );
      // The trigger's plan is made now, on an empty table.
      await like(ids[0], ids[1], 'first');
      await knex.raw(`INSERT INTO notifications (account_id, kind, data)
        SELECT a.id, 'follow', '{}' FROM accounts a, generate_series(1, 60)`);
      const scans = async () => {
        await knex.raw('SELECT pg_stat_clear_snapshot()');
        const { rows } = await knex.raw(
          `SELECT seq_scan, idx_scan FROM pg_stat_user_tables WHERE relname = 'notifications'`,
        );
        return { seq: Number(rows[0].seq_scan), index: Number(rows[0].idx_scan) };
      };
      // A backend's counts reach the shared statistics when it flushes them (forced at a transaction's end).
      const flushed = async () => {
        await web.query('SELECT pg_stat_force_next_flush()');
        await web.query('SELECT 1');
      };
      await flushed();
      const before = await scans();
      await like(ids[2], ids[3], 'second');
      await flushed();
      const after = await scans();
      expect(after.seq - before.seq, 'sequential scans of notifications').to.equal(0);
      expect(after.index).to.be.greaterThan(before.index);
      const { rows } = await knex.raw(`SELECT count(*)::int AS n FROM notifications WHERE collapse_key IS NOT NULL`);
      expect(rows[0].n).to.equal(2);
    } finally {
      await web.end();
      await knex.destroy();
    }
  });
});
