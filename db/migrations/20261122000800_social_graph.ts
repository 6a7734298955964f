// The social graph: follows, follow requests waiting at private accounts, and blocks. One row per pair
// and direction (primary keys), never a row about oneself (checks); a block and a follow between the same
// two accounts are kept apart by the commands, which remove follows and requests when a block arrives.
import type { Knex } from 'knex';

const PAIRS: Array<[string, string, string]> = [
  ['follows', 'follower_id', 'followee_id'],
  ['follow_requests', 'requester_id', 'target_id'],
  ['blocks', 'blocker_id', 'blocked_id'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, from, to] of PAIRS) {
    await knex.schema.createTable(table, (t) => {
      t.uuid(from).notNullable().references('accounts.id').onDelete('CASCADE');
      t.uuid(to).notNullable().references('accounts.id').onDelete('CASCADE');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary([from, to]);
      t.check(`${from} <> ${to}`, [], `${table}_not_self`);
      // The other direction's lists, newest first.
      t.index([to, 'created_at']);
      t.index([from, 'created_at']);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of [...PAIRS].reverse()) await knex.schema.dropTable(table);
}
