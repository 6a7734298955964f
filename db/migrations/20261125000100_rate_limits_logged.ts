// rate_limits was UNLOGGED to spare each key charge a WAL flush; the price was that a crash or a failover
// reset every lockout and allowance (39 rows became 0). Logged now: the key charge asks for an
// asynchronous commit of its own instead (shared/keys/key-caller.ts), so a crash can lose at most the
// last fraction of a second of charges, never the table. The index on expire serves the retention purge.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE rate_limits SET LOGGED');
  await knex.raw('CREATE INDEX rate_limits_expire ON rate_limits (expire)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX rate_limits_expire');
  await knex.raw('ALTER TABLE rate_limits SET UNLOGGED');
}
