// The catalog's version: one number that grows with every committed statement that changes a game. A web
// process keeps the browse columns of every game in memory (shared/catalog/snapshot/) and checks, with
// the page it reads, that the number is still the one its copy was read at; a change sends it back to the
// database until it has read the catalog again.
//
// A table row, not a sequence: a sequence moves before its transaction commits, so a process could read
// the new number with the old games and keep that copy for good. The row is written by the statement's
// own transaction and seen with its games. Statements that change nothing (catalog.stats every five
// minutes, when no count moved) leave it alone: the triggers look at the rows the statement touched.
import type { Knex } from 'knex';

const EVENTS = [
  { event: 'INSERT', table: 'NEW' },
  { event: 'UPDATE', table: 'NEW' },
  { event: 'DELETE', table: 'OLD' },
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE TABLE catalog_state (one boolean PRIMARY KEY DEFAULT true CHECK (one), version bigint NOT NULL)',
  );
  await knex.raw('INSERT INTO catalog_state (version) VALUES (1)');
  await knex.raw(`
    CREATE FUNCTION catalog_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Apart: a truncation has no rows to look at, and the EXISTS is only planned when it is reached.
      IF TG_OP = 'TRUNCATE' THEN
        UPDATE catalog_state SET version = version + 1;
      ELSIF EXISTS (SELECT 1 FROM changed) THEN
        UPDATE catalog_state SET version = version + 1;
      END IF;
      RETURN NULL;
    END $$`);
  for (const { event, table } of EVENTS) {
    // A trigger with a transition table answers one event, so each event has its own.
    await knex.raw(
      `CREATE TRIGGER games_version_${event.toLowerCase()} AFTER ${event} ON games
       REFERENCING ${table} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump()`,
    );
  }
  await knex.raw(
    'CREATE TRIGGER games_version_truncate AFTER TRUNCATE ON games FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump()',
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const { event } of EVENTS) await knex.raw(`DROP TRIGGER games_version_${event.toLowerCase()} ON games`);
  await knex.raw('DROP TRIGGER games_version_truncate ON games');
  await knex.raw('DROP FUNCTION catalog_version_bump()');
  await knex.raw('DROP TABLE catalog_state');
}
