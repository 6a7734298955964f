// Arcade (spec: arcade.md; DECISIONS: Staff and moderation, Arcade): operator settings and developer
// terms, the games (one per app), their store-page revisions, releases, URL checks, the timeline, the
// development URL, and the claims that keep a slug or an origin from ever serving another game.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

const FIRST_TERMS_VERSION = '2026-11-01';
const FIRST_TERMS_TEXT = `Jogatina Arcade developer terms (${FIRST_TERMS_VERSION})

1. You publish only games you have the right to publish, and you answer for what they do.
2. Your game's store page, releases and data-use statements are true and kept up to date.
3. Your game runs only from the origins you submitted and loads only the third parties you declared.
4. You use player identities and data events only to run your game, and delete them when asked.
5. Moderation may review, hide, flag or suspend your game, and remove it for breaking these terms.
`;

const APP_STATUSES = "status in ('draft', 'listed', 'hidden', 'suspended', 'removed')";
const RELEASE_STATUSES =
  "status in ('draft', 'submitted', 'in_review', 'approved', 'rejected', 'withdrawn', 'revoked')";

export async function up(knex: Knex): Promise<void> {
  // One row of operator settings (npm run op -- arcade ...).
  await knex.schema.createTable('arcade_settings', (t) => {
    t.boolean('id').primary().defaultTo(true);
    t.boolean('open_publishing').notNullable().defaultTo(false);
    t.integer('app_limit').notNullable().defaultTo(3);
    t.text('terms_version').notNullable();
    t.check('id', [], 'arcade_settings_single_row');
    t.check('app_limit >= 0', [], 'arcade_settings_app_limit');
  });
  await knex.schema.createTable('arcade_terms', (t) => {
    t.text('version').primary();
    t.text('text').notNullable();
    // What a developer accepted is pinned by the hash of the text shown to them.
    t.text('text_sha256').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex('arcade_terms').insert({
    version: FIRST_TERMS_VERSION,
    text: FIRST_TERMS_TEXT,
    text_sha256: createHash('sha256').update(FIRST_TERMS_TEXT).digest('hex'),
  });
  await knex('arcade_settings').insert({ id: true, terms_version: FIRST_TERMS_VERSION });
  await knex.raw(
    'ALTER TABLE arcade_settings ADD CONSTRAINT arcade_settings_terms FOREIGN KEY (terms_version) REFERENCES arcade_terms (version)',
  );

  await knex.schema.createTable('arcade_allowlist', (t) => {
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('arcade_blocked_networks', (t) => {
    t.specificType('network', 'cidr').primary();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('arcade_blocked_registrars', (t) => {
    t.text('name').primary(); // lower case
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('arcade_terms_acceptances', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('version').notNullable().references('arcade_terms.version');
    t.text('text_sha256').notNullable();
    t.timestamp('accepted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id', 'accepted_at']);
  });

  // A game: Arcade enabled on an app. The row outlives removal (status removed) and the app itself, with
  // its releases and checks, as the evidence kept 180 days (the retention purge deletes it then); so no
  // foreign key to apps. An app cannot be deleted while its game is not removed (409).
  await knex.schema.createTable('arcade_apps', (t) => {
    t.uuid('app_id').primary();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('slug').notNullable().unique();
    t.text('status').notNullable().defaultTo('draft');
    t.text('terms_version').notNullable().references('arcade_terms.version');
    t.uuid('live_release_id');
    // The release live just before the current one: the only one a rollback may bring back.
    t.uuid('previous_live_release_id');
    t.text('notice_kind');
    t.text('notice_reason');
    t.timestamp('notice_at', { useTz: true });
    t.timestamp('approved_at', { useTz: true });
    // When a report last asked for a re-check: at most one an hour per game, however many reports come.
    t.timestamp('report_recheck_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('removed_at', { useTz: true });
    t.check(APP_STATUSES, [], 'arcade_apps_status_known');
    t.check("notice_kind IS NULL OR notice_kind in ('suspended', 'flagged', 'hidden')", [], 'arcade_apps_notice');
    t.index(['account_id']);
  });

  // Slugs and origins are never reused, even after removal or the app's deletion: no foreign key, no delete.
  await knex.schema.createTable('arcade_claims', (t) => {
    t.text('kind').notNullable();
    t.text('value').notNullable();
    t.uuid('app_id').notNullable();
    t.timestamp('claimed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['kind', 'value']);
    t.check("kind in ('slug', 'origin')", [], 'arcade_claims_kind');
    t.index(['app_id']);
  });
  await knex.raw(`
    CREATE FUNCTION arcade_claims_forever() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'arcade claims are permanent'; END $$`);
  await knex.raw(`
    CREATE TRIGGER arcade_claims_forever BEFORE DELETE OR UPDATE ON arcade_claims
    FOR EACH ROW EXECUTE FUNCTION arcade_claims_forever()`);

  // Store page revisions: the single draft, then submitted, approved or rejected; superseded when a newer
  // one is approved. `fields` holds the draft body; `media` the slots' image ids.
  await knex.schema.createTable('arcade_listings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('app_id').notNullable().references('arcade_apps.app_id').onDelete('CASCADE');
    t.integer('number').notNullable();
    t.text('status').notNullable().defaultTo('draft');
    t.jsonb('fields');
    t.jsonb('media').notNullable().defaultTo('{}');
    t.timestamp('submitted_at', { useTz: true });
    t.timestamp('reviewed_at', { useTz: true });
    t.jsonb('review');
    t.uuid('reviewer_id').references('accounts.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['app_id', 'number']);
    t.check("status in ('draft', 'submitted', 'approved', 'rejected', 'superseded')", [], 'arcade_listings_status');
  });
  await knex.raw(
    "CREATE UNIQUE INDEX arcade_listings_one_draft ON arcade_listings (app_id) WHERE status IN ('draft', 'submitted')",
  );

  await knex.schema.createTable('arcade_releases', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('app_id').notNullable().references('arcade_apps.app_id').onDelete('CASCADE');
    t.integer('number').notNullable();
    t.text('status').notNullable().defaultTo('draft');
    t.text('entry_url').notNullable();
    t.text('entry_origin').notNullable();
    t.specificType('capabilities', 'text[]').notNullable().defaultTo('{}');
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
    t.text('orientation').notNullable();
    t.specificType('platforms', 'text[]').notNullable();
    t.jsonb('third_parties').notNullable().defaultTo('[]');
    t.text('data_events_url');
    t.text('notes').notNullable().defaultTo('');
    t.timestamp('submitted_at', { useTz: true });
    t.timestamp('reviewed_at', { useTz: true });
    t.jsonb('review');
    t.uuid('reviewer_id').references('accounts.id').onDelete('SET NULL');
    t.timestamp('approved_at', { useTz: true });
    // The check at approval: making live compares its body hash and hosting provider with a fresh one.
    t.text('approval_sha256');
    t.text('approval_provider');
    t.uuid('last_check_id');
    t.timestamp('went_live_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['app_id', 'number']);
    t.check(RELEASE_STATUSES, [], 'arcade_releases_status_known');
  });

  await knex.schema.createTable('arcade_checks', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('app_id').notNullable().references('arcade_apps.app_id').onDelete('CASCADE');
    t.uuid('release_id').notNullable().references('arcade_releases.id').onDelete('CASCADE');
    // Why it ran: the developer's check, submit, live, a report's re-check.
    t.text('cause').notNullable();
    t.jsonb('result').notNullable();
    t.boolean('passed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['release_id', 'created_at']);
    t.check("cause in ('check', 'submit', 'live', 'report')", [], 'arcade_checks_cause');
  });

  // The game's timeline as its developer sees it: what happened, never who did it.
  await knex.schema.createTable('arcade_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('app_id').notNullable().references('arcade_apps.app_id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['app_id', 'created_at']);
  });

  await knex.schema.createTable('arcade_overrides', (t) => {
    t.uuid('app_id').primary().references('arcade_apps.app_id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('origin').notNullable();
    t.text('host').notNullable();
    t.boolean('loopback').notNullable();
    t.uuid('release_id').notNullable().references('arcade_releases.id').onDelete('CASCADE');
    t.timestamp('set_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });

  // Moderators now also decide releases and store pages and act on games.
  await knex.raw(`ALTER TABLE moderator_actions DROP CONSTRAINT moderator_actions_action_known,
    ADD CONSTRAINT moderator_actions_action_known CHECK (action in ('resolve_report', 'add_infraction',
      'block_publisher', 'unblock_publisher', 'set_role', 'review_release', 'review_listing', 'arcade_app_action'))`);
  await knex.raw(`ALTER TABLE moderator_actions DROP CONSTRAINT moderator_actions_subject_known,
    ADD CONSTRAINT moderator_actions_subject_known CHECK (subject_kind in ('report', 'account', 'release',
      'listing', 'arcade_app'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DELETE FROM moderator_actions WHERE subject_kind IN ('release', 'listing', 'arcade_app')");
  await knex.raw(`ALTER TABLE moderator_actions DROP CONSTRAINT moderator_actions_action_known,
    ADD CONSTRAINT moderator_actions_action_known CHECK (action in ('resolve_report', 'add_infraction',
      'block_publisher', 'unblock_publisher', 'set_role'))`);
  await knex.raw(`ALTER TABLE moderator_actions DROP CONSTRAINT moderator_actions_subject_known,
    ADD CONSTRAINT moderator_actions_subject_known CHECK (subject_kind in ('report', 'account'))`);
  for (const table of [
    'arcade_overrides',
    'arcade_events',
    'arcade_checks',
    'arcade_releases',
    'arcade_listings',
    'arcade_claims',
    'arcade_apps',
    'arcade_terms_acceptances',
    'arcade_blocked_registrars',
    'arcade_blocked_networks',
    'arcade_allowlist',
    'arcade_settings',
    'arcade_terms',
  ]) {
    await knex.schema.dropTable(table);
  }
  await knex.raw('DROP FUNCTION arcade_claims_forever()');
}
