// The trigger that retires a notification's collapse window (migration 20261126000200_notification_collapse)
// finds the old window's row with an UPDATE whose plan each connection keeps (a generic one on the prepared
// pool: shared/platform/db/prepared.ts). Planned while the table's statistics said it was empty (a database
// analyzed before its first notification, and nothing to analyze it again: autovacuum off), the plan was a
// sequential scan, and stayed one as the table grew: one scan of every notification per like. In the content
// benchmark's interleaved rounds likes fell from about 1,300 a second to 466 over three rounds (20,000 scans
// read 200 million rows). With sequential scans off for this function, the plan is the collapse key's unique
// index whatever the statistics say; every other statement keeps the planner's own choice.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER FUNCTION notifications_window_retired() SET enable_seqscan = off');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER FUNCTION notifications_window_retired() RESET enable_seqscan');
}
