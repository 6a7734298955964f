// An activity item written one at a time (every write of people's content adds one) had its visibility
// derived by a statement trigger that planned its update anew on each call (EXECUTE, so a bulk insert and a
// single one each got a plan of their own size): 1.4 to 2 ms of planning per item, two thirds of creating a
// library entry. Per row, the statement is planned once per connection and costs a few index lookups; it
// still runs after the statement, so it sees a subject written in the same statement. A bulk insert (the
// demo seed's million items) pays those lookups per row, about 20 microseconds each.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER activity_items_derive_written ON activity_items');
  await knex.raw(`CREATE FUNCTION activity_items_derive_inserted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    UPDATE activity_items x SET visibility = v.visibility FROM activity_item_visibility v
      WHERE v.id = NEW.id AND x.id = NEW.id AND x.visibility <> v.visibility;
    RETURN NULL; END $$`);
  await knex.raw(`CREATE TRIGGER activity_items_derive_inserted AFTER INSERT ON activity_items
    FOR EACH ROW EXECUTE FUNCTION activity_items_derive_inserted()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER activity_items_derive_inserted ON activity_items');
  await knex.raw('DROP FUNCTION activity_items_derive_inserted()');
  await knex.raw(`CREATE TRIGGER activity_items_derive_written AFTER INSERT ON activity_items
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION activity_items_derive_written()`);
}
