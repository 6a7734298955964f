// A launch says its kind (DECISIONS: Fine print): `live` for the store's launch of the live release,
// `override` for the owner's launch of the development URL (spec: "a launch of kind `override`, for the
// owner only, in mode `test`"). Kind says what was opened and mode how; each play keeps both, and the
// check holds them to the spec's pairing (an override launch is a test, a live one is not). Earlier plays
// get the kind their mode implies.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE arcade_instances ADD COLUMN kind text');
  await knex.raw("UPDATE arcade_instances SET kind = CASE WHEN mode = 'test' THEN 'override' ELSE 'live' END");
  await knex.raw('ALTER TABLE arcade_instances ALTER COLUMN kind SET NOT NULL');
  await knex.raw(
    `ALTER TABLE arcade_instances ADD CONSTRAINT arcade_instances_kind
       CHECK (kind IN ('live', 'override') AND (kind = 'override') = (mode = 'test'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE arcade_instances DROP COLUMN kind');
}
