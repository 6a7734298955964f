// Passkeys (DECISIONS: Passkeys): WebAuthn credentials an account signs in with, and the challenges the
// options routes hand out. A challenge is the only state between a ceremony's two requests: the browser
// signs it, and the second request names it inside its signed client data, so it is looked up (and taken,
// once) by its own value; no cookie has to carry it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('passkeys', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // The authenticator's credential id, base64url: how a usernameless sign-in finds its passkey.
    table.text('credential_id').notNullable().unique();
    table.binary('public_key').notNullable();
    // The signature counter the authenticator last reported; one that goes backwards is a cloned key.
    table.bigInteger('counter').notNullable().defaultTo(0);
    table.specificType('transports', 'text[]').notNullable().defaultTo('{}');
    table.text('device_type').notNullable();
    table.boolean('backed_up').notNullable();
    table.text('name').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('last_used_at', { useTz: true });
    table.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('passkey_challenges', (table) => {
    table.text('challenge').primary();
    table.text('purpose').notNullable();
    // The account a registration is for; null for a sign-in, which does not know its account yet.
    table.uuid('account_id').references('accounts.id').onDelete('CASCADE');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.index(['expires_at']);
  });
  await knex.raw(
    "ALTER TABLE passkey_challenges ADD CONSTRAINT passkey_challenges_purpose CHECK (purpose IN ('register', 'sign_in'))",
  );
  await knex.raw(
    "ALTER TABLE passkey_challenges ADD CONSTRAINT passkey_challenges_account CHECK ((purpose = 'register') = (account_id IS NOT NULL))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('passkey_challenges');
  await knex.schema.dropTable('passkeys');
}
