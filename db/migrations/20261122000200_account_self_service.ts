// Usernames and their aliases, birth dates, infractions, sign-in identities and linked connections.
//
// Every name in use lives in `usernames`, current or alias, so one unique index keeps a name from being
// taken by anyone else while it is someone's alias (30 days after a rename). An alias past its end is
// deleted by whoever claims the name, in the same transaction.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('usernames', (table) => {
    table.text('name').primary();
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('kind').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    /** For an alias: when the old name stops pointing at the account and becomes free. */
    table.timestamp('expires_at', { useTz: true });
    table.check("kind in ('current', 'alias')", [], 'usernames_kind_known');
    table.check("name ~ '^[a-z0-9][a-z0-9_]{1,22}[a-z0-9]$'", [], 'usernames_shape');
    table.check("(kind = 'alias') = (expires_at IS NOT NULL)", [], 'usernames_alias_expires');
  });
  await knex.raw('CREATE UNIQUE INDEX usernames_name_ci ON usernames (lower(name))');
  await knex.raw("CREATE UNIQUE INDEX usernames_one_current ON usernames (account_id) WHERE kind = 'current'");
  await knex.raw('CREATE INDEX usernames_account ON usernames (account_id)');
  // Names taken before this table existed.
  await knex.raw(
    `INSERT INTO usernames (name, account_id, kind) SELECT username, id, 'current' FROM accounts WHERE username IS NOT NULL`,
  );

  await knex.schema.alterTable('accounts', (table) => {
    table.timestamp('username_changed_at', { useTz: true });
    table.date('birth_date');
    table.text('birth_date_confirmed_by');
  });
  await knex.raw(`ALTER TABLE accounts ADD CONSTRAINT accounts_birth_date_confirmed_known
    CHECK (birth_date_confirmed_by IS NULL OR birth_date_confirmed_by IN ('self_declared', 'document', 'moderator'))`);
  // "Too recent" moves with the calendar, which a CHECK constraint may not read: a trigger owns the rule
  // and raises a check violation under its own constraint name, mapped to 400 like any check.
  await knex.raw(`
    CREATE FUNCTION accounts_birth_date_old_enough() RETURNS trigger AS $$
    BEGIN
      IF NEW.birth_date IS NOT NULL AND NEW.birth_date > (current_date - interval '13 years')::date THEN
        RAISE EXCEPTION 'birth date less than 13 years ago'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_birth_date_old_enough';
      END IF;
      IF NEW.birth_date IS NOT NULL AND NEW.birth_date < date '1900-01-01' THEN
        RAISE EXCEPTION 'birth date before 1900'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_birth_date_plausible';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await knex.raw(`CREATE TRIGGER accounts_birth_date_old_enough BEFORE INSERT OR UPDATE OF birth_date ON accounts
    FOR EACH ROW EXECUTE FUNCTION accounts_birth_date_old_enough()`);

  await knex.schema.createTable('infractions', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    /** The kind, stored in Portuguese as the spec gives it. */
    table.text('reason').notNullable();
    table.text('details');
    table.timestamp('expires_at', { useTz: true });
    table.uuid('created_by').references('accounts.id').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("reason in ('Aviso', 'Suspensão', 'Banimento permanente')", [], 'infractions_reason_known');
    table.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('identities', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('provider').notNullable();
    table.text('provider_account_id').notNullable();
    table.text('display_name');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['provider', 'provider_account_id']);
    table.index(['account_id']);
  });

  await knex.schema.createTable('connections', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('service').notNullable();
    table.text('external_id').notNullable();
    table.text('display_name');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['account_id', 'service']);
    table.check("service in ('twitch', 'steam')", [], 'connections_service_known');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('connections');
  await knex.schema.dropTable('identities');
  await knex.schema.dropTable('infractions');
  await knex.raw('DROP TRIGGER accounts_birth_date_old_enough ON accounts');
  await knex.raw('DROP FUNCTION accounts_birth_date_old_enough()');
  await knex.raw('ALTER TABLE accounts DROP CONSTRAINT accounts_birth_date_confirmed_known');
  await knex.schema.alterTable('accounts', (table) => {
    table.dropColumn('username_changed_at');
    table.dropColumn('birth_date');
    table.dropColumn('birth_date_confirmed_by');
  });
  await knex.schema.dropTable('usernames');
}
