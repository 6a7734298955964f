// JIT compiling off for every session of the service's database, whoever opens it. The pool asks for it in
// its startup packet (`options=-c jit=off`, shared/platform/db/knex.ts), but a connection pooler between
// the service and the server (PgBouncer) refuses or drops startup options, so the database itself says
// it. A role that does not own the database cannot: the migration then says so and goes on, and the
// pool's own option still holds for direct connections.
import type { Knex } from 'knex';

const ALTER = (clause: string) => `
  DO $$ BEGIN
    EXECUTE format('ALTER DATABASE %I ${clause}', current_database());
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'jit stays as the server has it: this role does not own the database';
  END $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(ALTER('SET jit = off'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(ALTER('RESET jit'));
}
