// Reports (spec: POST /reports) and the moderation side DECISIONS adds: the queue reads `reports` in
// priority order, every moderator action is kept in `moderator_actions`, and a publisher block (Arcade
// reads it once Arcade apps exist) is a row in `publisher_blocks`.
//
// The database carries the rules it can: one open report per reporter and target (a partial unique
// index, so two requests racing each other cannot both pass), the kind and reason combinations, and the
// priority as a generated column so the queue's ORDER BY walks an index instead of sorting in memory.
import type { Knex } from 'knex';

const KINDS = ['PROFILE', 'REVIEW', 'LIST', 'SCREENSHOT', 'DIARY', 'PROFILE_COMMENT', 'CONTENT_COMMENT', 'ARCADE_APP'];
const REASONS = [
  'HARASSMENT',
  'HATE_SPEECH',
  'SPAM',
  'IMPERSONATION',
  'SEXUAL_CONTENT',
  'CHILD_SAFETY',
  'SELF_HARM',
  'VIOLENCE',
  'PRIVACY',
  'SPOILER',
  'SCAM',
  'OTHER',
];
const OUTCOMES = ['no_action', 'content_removed', 'warned', 'suspended', 'banned'];

const quoted = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reports', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // Reports outlive the accounts they name: moderation keeps its record (and the snapshot) either way.
    t.uuid('reporter_id').references('accounts.id').onDelete('SET NULL');
    // The spec's `on`, named like comments.target_kind (`on` is an SQL keyword).
    t.text('target_kind').notNullable();
    t.text('reason').notNullable();
    // Who published the target; null for ARCADE_APP until Arcade apps exist to take it from.
    t.uuid('target_account_id').references('accounts.id').onDelete('SET NULL');
    // The target as one key: the account id for PROFILE (so a rename cannot dodge the one-open rule), the
    // content's id (public id for lists and screenshots) or the Arcade app id for the rest.
    t.text('target_id').notNullable();
    t.text('details');
    t.uuid('instance_id');
    // What the target looked like when reported: content can change or go before a moderator looks.
    t.jsonb('snapshot').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.text('outcome');
    t.text('note');
    t.uuid('resolved_by').references('accounts.id').onDelete('SET NULL');
    t.timestamp('resolved_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`target_kind in (${quoted(KINDS)})`, [], 'reports_target_kind_known');
    t.check(`reason in (${quoted(REASONS)})`, [], 'reports_reason_known');
    t.check("reason <> 'SPOILER' OR target_kind <> 'PROFILE'", [], 'reports_spoiler_on_content');
    t.check("reason <> 'SCAM' OR target_kind = 'ARCADE_APP'", [], 'reports_scam_on_arcade');
    t.check("instance_id IS NULL OR target_kind = 'ARCADE_APP'", [], 'reports_instance_on_arcade');
    t.check('details IS NULL OR length(details) <= 1000', [], 'reports_details_length');
    t.check('note IS NULL OR length(note) <= 1000', [], 'reports_note_length');
    t.check("status in ('open', 'resolved')", [], 'reports_status_known');
    t.check(`outcome IS NULL OR outcome in (${quoted(OUTCOMES)})`, [], 'reports_outcome_known');
    t.check(
      "(status = 'open') = (resolved_at IS NULL) AND (status = 'open') = (outcome IS NULL)",
      [],
      'reports_resolution_complete',
    );
    t.index(['target_account_id']);
    t.index(['reporter_id']);
  });
  // The spec's order of the queue: CHILD_SAFETY, SELF_HARM and VIOLENCE first, then SCAM, then the rest.
  await knex.raw(`ALTER TABLE reports ADD COLUMN priority smallint NOT NULL GENERATED ALWAYS AS (
    CASE WHEN reason IN ('CHILD_SAFETY', 'SELF_HARM', 'VIOLENCE') THEN 0 WHEN reason = 'SCAM' THEN 1 ELSE 2 END
  ) STORED`);
  await knex.raw(
    "CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_kind, target_id) WHERE status = 'open'",
  );
  // The queue: open first ('open' sorts before 'resolved'), then priority, then oldest first.
  await knex.raw('CREATE INDEX reports_queue ON reports (status, priority, created_at, id)');

  await knex.schema.createTable('moderator_actions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // Null when an operator acted from the command line, or the moderator's account is gone.
    t.uuid('moderator_id').references('accounts.id').onDelete('SET NULL');
    t.text('action').notNullable();
    t.text('subject_kind').notNullable();
    t.text('subject_id').notNullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(
      "action in ('resolve_report', 'add_infraction', 'block_publisher', 'unblock_publisher', 'set_role')",
      [],
      'moderator_actions_action_known',
    );
    t.check("subject_kind in ('report', 'account')", [], 'moderator_actions_subject_known');
    t.index(['created_at', 'id']);
    t.index(['subject_kind', 'subject_id']);
  });

  await knex.schema.createTable('publisher_blocks', (t) => {
    // A row means blocked: Arcade publishing will read it by the account's id.
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.uuid('blocked_by').references('accounts.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('publisher_blocks');
  await knex.schema.dropTable('moderator_actions');
  await knex.schema.dropTable('reports');
}
