// The service's own checks of live Arcade games (spec: App Arcade record `notice`, hidden for invariant or
// provider_change): checks run by the schedule are stored with cause `schedule`; a game keeps when its
// live release is checked next (spread over the day by shared/arcade/recheck-rules.ts) and the hosting
// provider that release is pinned to (set by making it live; a moderator's restore of a game hidden for
// provider_change lets the next check pin it again).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE arcade_checks DROP CONSTRAINT arcade_checks_cause,
    ADD CONSTRAINT arcade_checks_cause CHECK (cause in ('check', 'submit', 'live', 'report', 'schedule'))`);
  await knex.schema.alterTable('arcade_apps', (t) => {
    t.text('pinned_provider');
    // Null for a game never scheduled: due at once (the sweep takes the oldest first, a batch at a time).
    t.timestamp('recheck_due_at', { useTz: true });
  });
  // The sweep walks the due games of this index in order and stops at its batch.
  await knex.raw(`CREATE INDEX arcade_apps_recheck_due ON arcade_apps (recheck_due_at NULLS FIRST)
    WHERE live_release_id IS NOT NULL`);
  // Games live before this: pinned to what their approval saw (null: their next check pins its provider).
  await knex.raw(`UPDATE arcade_apps a SET pinned_provider = r.approval_provider
    FROM arcade_releases r WHERE r.id = a.live_release_id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX arcade_apps_recheck_due');
  await knex.schema.alterTable('arcade_apps', (t) => {
    t.dropColumn('pinned_provider');
    t.dropColumn('recheck_due_at');
  });
  await knex.raw("DELETE FROM arcade_checks WHERE cause = 'schedule'");
  await knex.raw(`ALTER TABLE arcade_checks DROP CONSTRAINT arcade_checks_cause,
    ADD CONSTRAINT arcade_checks_cause CHECK (cause in ('check', 'submit', 'live', 'report'))`);
}
