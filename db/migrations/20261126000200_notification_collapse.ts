// What the writers of notifications need beside the table (migration 20261126000100_notifications):
//
// Likes on one thing within an hour collapse into one notification (DECISIONS: Notifications). A like is
// one statement that locks the thing first, but a statement's CTEs read the snapshot taken before that
// lock was granted, so "find a recent notification, else insert one" would let parallel likes each insert
// their own. A unique index on (recipient, collapse_key) makes the database decide instead: the like's
// INSERT ... ON CONFLICT DO UPDATE either writes the window's notification or adds itself to it, and a
// conflict always sees the latest committed row. A window lasts an hour from its first like
// (`collapse_started_at`; a collapse moves `created_at`, so that cannot tell): the next like after that
// retires the old window's key (sets it null: the old notification stays as it was) before the insert
// tests the index, in a BEFORE INSERT trigger, whose statement reads a fresh snapshot and runs before
// PostgreSQL looks for a conflict.
//
// A deleted thing takes the notifications about it (DECISIONS: Shared rules), and a deleted comment its
// own, by statement triggers beside the ones that take their likes and comments.
import type { Knex } from 'knex';

/** Each thing that can be a notification's subject: its table, its subject kind, and the column clients name it by. */
const SUBJECTS: Record<string, { kind: string; apiColumn: string }> = {
  reviews: { kind: 'REVIEW', apiColumn: 'id' },
  lists: { kind: 'LIST', apiColumn: 'public_id' },
  screenshots: { kind: 'SCREENSHOT', apiColumn: 'public_id' },
  play_sessions: { kind: 'DIARY', apiColumn: 'id' },
  journeys: { kind: 'JOURNEY', apiColumn: 'id' },
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE notifications ADD COLUMN collapse_started_at timestamptz');
  // The unique index finds the window's notification; the lead's plain index on the key is then redundant.
  await knex.raw('DROP INDEX notifications_collapsing');
  await knex.raw(`CREATE UNIQUE INDEX notifications_collapse_window ON notifications (account_id, collapse_key)
    WHERE collapse_key IS NOT NULL`);
  await knex.raw(`CREATE FUNCTION notifications_window_retired() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    UPDATE notifications SET collapse_key = NULL
      WHERE account_id = NEW.account_id AND collapse_key = NEW.collapse_key
        AND collapse_started_at <= now() - interval '1 hour';
    NEW.collapse_started_at := now();
    RETURN NEW;
  END $$`);
  await knex.raw(`CREATE TRIGGER notifications_window_retired BEFORE INSERT ON notifications
    FOR EACH ROW WHEN (NEW.collapse_key IS NOT NULL) EXECUTE FUNCTION notifications_window_retired()`);

  // What a thing's deletion looks up (subject_id is text: lists and screenshots are named by public id).
  await knex.raw(`CREATE INDEX notifications_subject ON notifications (subject_kind, subject_id)
    WHERE subject_kind IS NOT NULL`);
  await knex.raw(`CREATE FUNCTION notifications_subjects_gone() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    EXECUTE format('DELETE FROM notifications n WHERE n.subject_kind = $1
      AND n.subject_id IN (SELECT s.%I::text FROM subjects s)', TG_ARGV[1]) USING TG_ARGV[0];
    RETURN NULL; END $$`);
  for (const [table, { kind, apiColumn }] of Object.entries(SUBJECTS)) {
    await knex.raw(`CREATE TRIGGER ${table}_notifications_gone AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS subjects FOR EACH STATEMENT
      EXECUTE FUNCTION notifications_subjects_gone('${kind}', '${apiColumn}')`);
  }

  // A comment's notification names it in data.comment_id (the contract's data of kind comment).
  await knex.raw(`CREATE INDEX notifications_comment ON notifications ((data->>'comment_id'))
    WHERE kind = 'comment'`);
  await knex.raw(`CREATE FUNCTION notifications_comments_gone() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    DELETE FROM notifications n WHERE n.kind = 'comment' AND n.data->>'comment_id' IN (SELECT c.id::text FROM gone c);
    RETURN NULL; END $$`);
  await knex.raw(`CREATE TRIGGER comments_notifications_gone AFTER DELETE ON comments
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION notifications_comments_gone()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER comments_notifications_gone ON comments');
  await knex.raw('DROP FUNCTION notifications_comments_gone()');
  await knex.raw('DROP INDEX notifications_comment');
  for (const table of Object.keys(SUBJECTS)) await knex.raw(`DROP TRIGGER ${table}_notifications_gone ON ${table}`);
  await knex.raw('DROP FUNCTION notifications_subjects_gone()');
  await knex.raw('DROP INDEX notifications_subject');
  await knex.raw('DROP TRIGGER notifications_window_retired ON notifications');
  await knex.raw('DROP FUNCTION notifications_window_retired()');
  await knex.raw('DROP INDEX notifications_collapse_window');
  await knex.raw(`CREATE INDEX notifications_collapsing ON notifications (account_id, collapse_key, created_at)
    WHERE collapse_key IS NOT NULL`);
  await knex.raw('ALTER TABLE notifications DROP COLUMN collapse_started_at');
}
