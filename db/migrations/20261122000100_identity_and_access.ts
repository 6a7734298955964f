// Accounts, sessions, one-time sign-in tokens, apps and API keys, and the counters behind allowances and
// attempt limits. Secrets are never stored as given: passwords as Argon2id, session cookies, key tokens,
// one-time tokens and recovery codes as SHA-256, TOTP secrets sealed with the server secret.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('email').notNullable();
    table.timestamp('email_verified_at', { useTz: true });
    table.text('password_hash');
    table.text('username');
    table.text('display_name');
    table.text('role').notNullable().defaultTo('member');
    table.text('two_factor_secret');
    table.timestamp('two_factor_enabled_at', { useTz: true });
    table.text('two_factor_pending_secret');
    /** The last TOTP time step accepted, so a code is accepted once. */
    table.bigInteger('totp_last_step');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("role in ('member', 'moderator', 'admin')", [], 'accounts_role_known');
    table.check("username ~ '^[a-z0-9][a-z0-9_]{1,22}[a-z0-9]$'", [], 'accounts_username_shape');
    table.check('char_length(email) between 3 and 254', [], 'accounts_email_length');
  });
  await knex.raw('CREATE UNIQUE INDEX accounts_email_unique ON accounts (lower(email))');
  await knex.raw('CREATE UNIQUE INDEX accounts_username_unique ON accounts (username) WHERE username IS NOT NULL');

  await knex.schema.createTable('sessions', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('token_hash').notNullable().unique();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    /** Sign-in, or the last passed re-authentication: the start of "signed in within 15 minutes". */
    table.timestamp('signed_in_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.text('second_factor').notNullable().defaultTo('none');
    table.text('user_agent');
    table.text('ip');
    table.check("second_factor in ('none', 'pending', 'passed')", [], 'sessions_second_factor_known');
    table.index(['account_id']);
  });

  await knex.schema.createTable('recovery_codes', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('code_hash').notNullable();
    table.timestamp('used_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['account_id', 'code_hash']);
  });

  await knex.schema.createTable('auth_tokens', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('purpose').notNullable();
    table.text('token_hash').notNullable().unique();
    table.text('email').notNullable();
    table.uuid('account_id').references('accounts.id').onDelete('CASCADE');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("purpose in ('magic_link', 'verify_email')", [], 'auth_tokens_purpose_known');
  });

  await knex.schema.createTable('apps', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('name').notNullable();
    table.text('description').notNullable().defaultTo('');
    table.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check('char_length(name) between 1 and 60', [], 'apps_name_length');
    table.check('char_length(description) <= 400', [], 'apps_description_length');
    table.index(['account_id', 'updated_at']);
  });

  await knex.schema.createTable('api_keys', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('name').notNullable();
    table.text('token_hash').notNullable().unique();
    table.text('last4').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('expires_at', { useTz: true });
    table.timestamp('revoked_at', { useTz: true });
    table.timestamp('last_used_at', { useTz: true });
    table.check('char_length(name) between 1 and 60', [], 'api_keys_name_length');
    table.index(['app_id']);
    table.index(['account_id']);
  });

  // rate-limiter-flexible's table (allowances per key, attempt limits): one atomic upsert per charge.
  // UNLOGGED: a charge then commits without waiting for a WAL flush (the difference between about 1 ms
  // and a fraction of it per request); the price is that a database crash resets the counters.
  await knex.raw(`CREATE UNLOGGED TABLE rate_limits (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  )`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rate_limits', 'api_keys', 'apps', 'auth_tokens', 'recovery_codes', 'sessions', 'accounts']) {
    await knex.schema.dropTable(table);
  }
}
