// The writes people make most (PUT /library/{game}, POST /reviews) become one statement each, with no
// transaction around them: each round trip to the database cost the web process more than the work it
// carried (a PUT took five: BEGIN, an update that took a lock, a count and insert, the feed item, COMMIT).
// Two limits that a lock held across statements used to guard are now held by rows that one statement can
// lock and re-read:
// - `library_counts`: each account's entry count, kept by statement triggers on library_entries, with the
//   20,000 limit as a check. Two creators at 19,999 queue on the row and the second fails the check, in
//   whatever statement inserted (a PUT, an import, a copy's entry).
// - `rolling_windows`: a cap's uses in its window, one row per cap and subject (`reviews:<account>`). An
//   INSERT ... ON CONFLICT DO UPDATE ... WHERE locks the row and tests its latest version, so exactly
//   `limit` parallel writers pass. It replaces `rolling_uses`, whose count needed a lock taken by an
//   earlier statement (a statement reads what committed before it began, not before its lock).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('library_counts', (t) => {
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.integer('entries').notNullable().defaultTo(0);
  });
  // The limit of shared/library/entry-rules.ts (LIBRARY_ENTRY_LIMIT); a test holds the two equal.
  await knex.raw('ALTER TABLE library_counts ADD CONSTRAINT library_counts_limit CHECK (entries BETWEEN 0 AND 20000)');
  await knex.raw(`INSERT INTO library_counts (account_id, entries)
    SELECT account_id, count(*) FROM library_entries GROUP BY account_id`);
  // Per statement with the rows it wrote: an import of 500 or the demo seed's million is one update per account.
  await knex.raw(`CREATE FUNCTION library_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    INSERT INTO library_counts AS c (account_id, entries)
      SELECT account_id, count(*) FROM added GROUP BY account_id
      ON CONFLICT (account_id) DO UPDATE SET entries = c.entries + excluded.entries;
    RETURN NULL; END $$`);
  await knex.raw(`CREATE FUNCTION library_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    UPDATE library_counts c SET entries = c.entries - r.n
      FROM (SELECT account_id, count(*) AS n FROM removed GROUP BY account_id) r WHERE c.account_id = r.account_id;
    RETURN NULL; END $$`);
  await knex.raw(`CREATE TRIGGER library_counts_added AFTER INSERT ON library_entries
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION library_counts_added()`);
  await knex.raw(`CREATE TRIGGER library_counts_removed AFTER DELETE ON library_entries
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION library_counts_removed()`);

  await knex.schema.createTable('rolling_windows', (t) => {
    // `<cap>:<subject>`, e.g. `reviews:<account id>`.
    t.text('key').primary();
    // The uses inside the cap's window, oldest first; never more than the cap's limit.
    t.specificType('uses', 'timestamptz[]').notNullable();
    // For the retention purge: a row whose last use left every window is forgotten.
    t.timestamp('last_use', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX rolling_windows_last_use ON rolling_windows (last_use)');
  await knex.raw(`INSERT INTO rolling_windows (key, uses, last_use)
    SELECT key, array_agg(at ORDER BY at), max(at) FROM rolling_uses GROUP BY key`);
  await knex.schema.dropTable('rolling_uses');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('rolling_uses', (t) => {
    t.bigIncrements('id');
    t.text('key').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['key', 'at']);
  });
  await knex.raw('INSERT INTO rolling_uses (key, at) SELECT key, unnest(uses) FROM rolling_windows');
  await knex.schema.dropTable('rolling_windows');
  await knex.raw('DROP TRIGGER library_counts_removed ON library_entries');
  await knex.raw('DROP TRIGGER library_counts_added ON library_entries');
  await knex.raw('DROP FUNCTION library_counts_removed()');
  await knex.raw('DROP FUNCTION library_counts_added()');
  await knex.schema.dropTable('library_counts');
}
