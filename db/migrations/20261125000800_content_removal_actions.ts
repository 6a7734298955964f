// Moderators remove and restore people's content (DECISIONS: Staff and moderation, POST
// /moderation/content/{kind}/{id}): each is recorded like every other moderator action, about a piece of
// content (`subject_id` is `<kind>:<id>`).
import type { Knex } from 'knex';

const ACTIONS = [
  'resolve_report',
  'add_infraction',
  'block_publisher',
  'unblock_publisher',
  'set_role',
  'review_release',
  'review_listing',
  'arcade_app_action',
];
const SUBJECTS = ['report', 'account', 'release', 'listing', 'arcade_app'];

const quoted = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

async function allow(knex: Knex, actions: string[], subjects: string[]): Promise<void> {
  await knex.raw(`ALTER TABLE moderator_actions DROP CONSTRAINT moderator_actions_action_known,
    ADD CONSTRAINT moderator_actions_action_known CHECK (action in (${quoted(actions)}))`);
  await knex.raw(`ALTER TABLE moderator_actions DROP CONSTRAINT moderator_actions_subject_known,
    ADD CONSTRAINT moderator_actions_subject_known CHECK (subject_kind in (${quoted(subjects)}))`);
}

export async function up(knex: Knex): Promise<void> {
  await allow(knex, [...ACTIONS, 'remove_content', 'restore_content'], [...SUBJECTS, 'content']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DELETE FROM moderator_actions WHERE subject_kind = 'content'");
  await allow(knex, ACTIONS, SUBJECTS);
}
