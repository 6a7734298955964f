// A person's history, the write side (DECISIONS: History).
// - `accounts.record_history` (PATCH /profile): on the account rather than the profile row, as
//   display_name is: the session lookup already loads the account with every request, so deciding not to
//   record costs no query at all.
// - `record_views`: the views of a few milliseconds written in one call, each row upserted (a repeat view
//   moves it to the top), committed without waiting for the WAL flush (synchronous_commit off for this transaction alone). A
//   view is worth less than a flush per read: a crash can lose the last moment's views, never the
//   database's consistency. It does not trim the history to its 500: reads show the newest 500 and the
//   daily retention purge removes the rest (shared/history/history.ts): trimming exactly in every write
//   (an advisory lock per account, then a walk of its 500) took recording sessions from about 0.75x to
//   about 0.6x of the rate of reads that record nothing (bench/scenarios/history.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.boolean('record_history').notNullable().defaultTo(true);
  });
  // The views of a few milliseconds at once (shared/history/recording.ts), each a distinct account and
  // thing, in the order they came: clock_timestamp() per row keeps that order among them.
  await knex.raw(`
    CREATE FUNCTION record_views(readers uuid[], games integer[], people uuid[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM set_config('synchronous_commit', 'off', true);
      INSERT INTO view_history AS h (account_id, game_id, viewed_at)
        SELECT v.reader, v.game, clock_timestamp() FROM unnest(readers, games) WITH ORDINALITY AS v(reader, game, n)
        WHERE v.game IS NOT NULL ORDER BY v.n
        ON CONFLICT (account_id, game_id) WHERE game_id IS NOT NULL DO UPDATE SET viewed_at = excluded.viewed_at;
      INSERT INTO view_history AS h (account_id, profile_id, viewed_at)
        SELECT v.reader, v.person, clock_timestamp() FROM unnest(readers, people) WITH ORDINALITY AS v(reader, person, n)
        WHERE v.person IS NOT NULL ORDER BY v.n
        ON CONFLICT (account_id, profile_id) WHERE profile_id IS NOT NULL DO UPDATE SET viewed_at = excluded.viewed_at;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION record_views(uuid[], integer[], uuid[])');
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('record_history');
  });
}
