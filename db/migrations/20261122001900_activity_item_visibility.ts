// Each activity item stores who may see it, so a feed picks its page from the items alone. Before, every
// item the walk passed cost a lookup of its subject (and of the author's profile for library entries)
// just to learn that; for an anonymous reader that was most of the feed's work (issue 8: GET /activity
// p95 29 to 31 ms at 20 clients, target 25).
//
// The value is derived, never decided by a writer: the view `activity_item_visibility` is the one rule,
// and triggers re-apply it to the items written and to the items of whatever it depends on when that
// changes. PUBLIC, FOLLOWERS and PRIVATE mean what they mean on the subject (a library entry shows by its
// author's library visibility, PUBLIC without a profile); HIDDEN is nobody, the author included: a capture
// removed by moderation, or a subject that is gone. Suspension is not stored: it ends by itself when an
// infraction expires, so the feed still asks for it per author. `npm run op -- check` names any item whose
// stored value differs from the rule (shared/consistency/check.ts).
import type { Knex } from 'knex';

/** The subject tables whose own `visibility` column an item shows by, with the item kind. */
const OWN_VISIBILITY = { reviews: 'review', play_sessions: 'session', lists: 'list', journeys: 'journey' };
/** Every table an item can be about. */
const SUBJECTS = { ...OWN_VISIBILITY, screenshots: 'screenshot', library_entries: 'entry' };

/** SQL: re-apply the rule to the items `where` selects (as `x`), writing only those that differ. */
const derive = (where: string) => `UPDATE activity_items x SET visibility = v.visibility
  FROM activity_item_visibility v WHERE v.id = x.id AND x.visibility <> v.visibility AND ${where}`;

/** A row trigger's function: `derive(where)` with NEW and TG_ARGV, its plan cached like any plpgsql statement. */
const perRow = (name: string, where: string) =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${derive(where)}; RETURN NULL; END $$`;

/**
 * A statement trigger's function over its transition table, with the item kind as $1. EXECUTE plans it
 * for each call: a cached plan would keep the join chosen for the first call's size, and a hash join
 * built for a million rows is wrong for one (and nested lookups wrong for a million).
 */
const perStatement = (name: string, where: string, kind = false) =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    EXECUTE $sql$ ${derive(where)} $sql$${kind ? ' USING TG_ARGV[0]' : ''}; RETURN NULL; END $$`;

export async function up(knex: Knex): Promise<void> {
  // A view, so the triggers and the check apply one rule to any set of items. (Its joins made PostgreSQL
  // compute it for every item first; migration activity_item_visibility_by_lookup replaces them.)
  await knex.raw(`CREATE VIEW activity_item_visibility AS
    SELECT x.id, coalesce(CASE x.kind
        WHEN 'review' THEN r.visibility
        WHEN 'session' THEN p.visibility
        WHEN 'list' THEN l.visibility
        WHEN 'journey' THEN j.visibility
        WHEN 'screenshot' THEN CASE WHEN s.removed_at IS NULL THEN s.visibility ELSE 'HIDDEN' END
        WHEN 'entry' THEN CASE WHEN e.id IS NOT NULL THEN coalesce(pr.library_visibility, 'PUBLIC') END
      END, 'HIDDEN') AS visibility
    FROM activity_items x
    LEFT JOIN reviews r ON x.kind = 'review' AND r.id = x.subject_id
    LEFT JOIN play_sessions p ON x.kind = 'session' AND p.id = x.subject_id
    LEFT JOIN lists l ON x.kind = 'list' AND l.id = x.subject_id
    LEFT JOIN journeys j ON x.kind = 'journey' AND j.id = x.subject_id
    LEFT JOIN screenshots s ON x.kind = 'screenshot' AND s.id = x.subject_id
    LEFT JOIN library_entries e ON x.kind = 'entry' AND e.id = x.subject_id
    LEFT JOIN profiles pr ON x.kind = 'entry' AND pr.account_id = x.account_id`);

  // Added as PUBLIC, so existing rows are not rewritten to receive it, and only the items that are not
  // PUBLIC are then updated. From here on an item written without a value is HIDDEN until the trigger
  // of its statement derives it: a writer may pass the value it knows (saving that update), never decide.
  await knex.raw(`ALTER TABLE activity_items ADD COLUMN visibility text NOT NULL DEFAULT 'PUBLIC'
    CONSTRAINT activity_items_visibility_known CHECK (visibility IN ('PUBLIC', 'FOLLOWERS', 'PRIVATE', 'HIDDEN'))`);
  await knex.raw(derive('true'));
  await knex.raw(`ALTER TABLE activity_items ALTER COLUMN visibility SET DEFAULT 'HIDDEN'`);
  // The subject triggers find a subject's items by it.
  await knex.raw('CREATE INDEX activity_items_subject_id_index ON activity_items (subject_id)');

  // Items written, or pointed at another subject or author.
  await knex.raw(perStatement('activity_items_derive_written', 'x.id IN (SELECT id FROM written)'));
  await knex.raw(`CREATE TRIGGER activity_items_derive_written AFTER INSERT ON activity_items
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION activity_items_derive_written()`);
  await knex.raw(perRow('activity_items_derive_moved', 'x.id = NEW.id'));
  await knex.raw(`CREATE TRIGGER activity_items_derive_moved AFTER UPDATE OF kind, subject_id, account_id
    ON activity_items FOR EACH ROW EXECUTE FUNCTION activity_items_derive_moved()`);

  // A subject that changes its visibility or is removed by moderation: its items follow.
  await knex.raw(perRow('activity_items_follow_subject', 'x.subject_id = NEW.id AND x.kind = TG_ARGV[0]'));
  for (const [table, kind] of Object.entries(OWN_VISIBILITY)) {
    await knex.raw(`CREATE TRIGGER ${table}_activity_visibility AFTER UPDATE OF visibility ON ${table}
      FOR EACH ROW WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility)
      EXECUTE FUNCTION activity_items_follow_subject('${kind}')`);
  }
  await knex.raw(`CREATE TRIGGER screenshots_activity_visibility AFTER UPDATE OF visibility, removed_at ON screenshots
    FOR EACH ROW WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility OR OLD.removed_at IS DISTINCT FROM NEW.removed_at)
    EXECUTE FUNCTION activity_items_follow_subject('screenshot')`);

  // A subject deleted hides its items; per statement, so an account's cascade is one join. (A subject
  // inserted needs nothing: its items come after it, or in the same statement, whose trigger above runs
  // when the statement is done and sees it.)
  await knex.raw(
    perStatement('activity_items_follow_subjects', 'x.subject_id IN (SELECT id FROM subjects) AND x.kind = $1', true),
  );
  for (const [table, kind] of Object.entries(SUBJECTS)) {
    await knex.raw(`CREATE TRIGGER ${table}_activity_gone AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS subjects FOR EACH STATEMENT EXECUTE FUNCTION activity_items_follow_subjects('${kind}')`);
  }

  // Library entries show by their author's library visibility: a profile that sets, changes or loses it
  // re-applies the rule to that person's entry items.
  await knex.raw(perRow('activity_items_follow_library', `x.account_id = NEW.account_id AND x.kind = 'entry'`));
  await knex.raw(`CREATE TRIGGER profiles_activity_visibility AFTER UPDATE OF library_visibility ON profiles
    FOR EACH ROW WHEN (OLD.library_visibility IS DISTINCT FROM NEW.library_visibility)
    EXECUTE FUNCTION activity_items_follow_library()`);
  await knex.raw(
    perStatement(
      'activity_items_follow_libraries',
      `x.account_id IN (SELECT account_id FROM people) AND x.kind = 'entry'`,
    ),
  );
  await knex.raw(`CREATE TRIGGER profiles_activity_written AFTER INSERT ON profiles
    REFERENCING NEW TABLE AS people FOR EACH STATEMENT EXECUTE FUNCTION activity_items_follow_libraries()`);
  await knex.raw(`CREATE TRIGGER profiles_activity_gone AFTER DELETE ON profiles
    REFERENCING OLD TABLE AS people FOR EACH STATEMENT EXECUTE FUNCTION activity_items_follow_libraries()`);
}

export async function down(knex: Knex): Promise<void> {
  for (const trigger of ['visibility', 'written', 'gone']) {
    await knex.raw(`DROP TRIGGER profiles_activity_${trigger} ON profiles`);
  }
  for (const table of Object.keys(SUBJECTS)) {
    await knex.raw(`DROP TRIGGER ${table}_activity_gone ON ${table}`);
    if (table !== 'library_entries') await knex.raw(`DROP TRIGGER ${table}_activity_visibility ON ${table}`);
  }
  await knex.raw('DROP TRIGGER activity_items_derive_moved ON activity_items');
  await knex.raw('DROP TRIGGER activity_items_derive_written ON activity_items');
  for (const name of ['follow_libraries', 'follow_library', 'follow_subjects', 'follow_subject', 'derive_moved']) {
    await knex.raw(`DROP FUNCTION activity_items_${name}()`);
  }
  await knex.raw('DROP FUNCTION activity_items_derive_written()');
  await knex.raw('DROP INDEX activity_items_subject_id_index');
  await knex.raw('DROP VIEW activity_item_visibility');
  await knex.raw('ALTER TABLE activity_items DROP COLUMN visibility');
}
