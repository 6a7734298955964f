// The identity key set (spec: Key set; DECISIONS: Arcade): ES256 keys in states next, current and
// retiring, the private part sealed with SECRET. One current and one next at most, by partial indexes.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signing_keys', (t) => {
    t.text('kid').primary();
    t.text('state').notNullable();
    t.jsonb('public_jwk').notNullable();
    t.text('private_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('promoted_at', { useTz: true });
    t.timestamp('retired_at', { useTz: true });
    t.check("state in ('next', 'current', 'retiring')", [], 'signing_keys_state');
  });
  await knex.raw("CREATE UNIQUE INDEX signing_keys_one_current ON signing_keys (state) WHERE state = 'current'");
  await knex.raw("CREATE UNIQUE INDEX signing_keys_one_next ON signing_keys (state) WHERE state = 'next'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signing_keys');
}
