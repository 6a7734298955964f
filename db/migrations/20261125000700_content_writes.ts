// People write their own library, journal and reviews (issue 22). What the write side needs of the tables:
// - one live play session per account, held by a partial unique index, so two parallel starts cannot both
//   pass a check;
// - moderation's removal on reviews, sessions, journeys and lists (`removed_at`, as screenshots and comments have
//   it): the rule of activity_item_visibility reads it, so a removed thing's items are HIDDEN;
// - the counters a likeable thing shows wherever it is shown (`likes`, `awards`), kept by the writes of
//   likes and awards (lists already carry `likes`);
// - `rolling_uses`: the log of uses that daily and hourly caps count over a rolling window (DECISIONS:
//   Refusals), written in the transaction of the write it limits, so a rolled-back write uses nothing;
// - a subject deleted takes its activity items and the comments on it in the same statement (before, its
//   items only turned HIDDEN and the comments stayed, pointing at nothing).
import type { Knex } from 'knex';

/** The things with an own visibility that moderation can remove, with their activity kind and comment kind. */
const REMOVABLE = { reviews: 'review', play_sessions: 'session', journeys: 'journey', lists: 'list' };
/** Every subject table with its activity kind and the kind comments on it name (null: no comments). */
const SUBJECTS: Record<string, { kind: string; comments: string | null }> = {
  reviews: { kind: 'review', comments: 'REVIEW' },
  play_sessions: { kind: 'session', comments: 'DIARY' },
  journeys: { kind: 'journey', comments: 'JOURNEY' },
  lists: { kind: 'list', comments: 'LIST' },
  screenshots: { kind: 'screenshot', comments: 'SCREENSHOT' },
  library_entries: { kind: 'entry', comments: null },
};

const VIEW_WITH_REMOVAL = `CREATE OR REPLACE VIEW activity_item_visibility AS
    SELECT x.id, coalesce(CASE x.kind
        WHEN 'review' THEN (SELECT CASE WHEN r.removed_at IS NULL THEN r.visibility ELSE 'HIDDEN' END
                            FROM reviews r WHERE r.id = x.subject_id)
        WHEN 'session' THEN (SELECT CASE WHEN p.removed_at IS NULL THEN p.visibility ELSE 'HIDDEN' END
                             FROM play_sessions p WHERE p.id = x.subject_id)
        WHEN 'list' THEN (SELECT CASE WHEN l.removed_at IS NULL THEN l.visibility ELSE 'HIDDEN' END
                          FROM lists l WHERE l.id = x.subject_id)
        WHEN 'journey' THEN (SELECT CASE WHEN j.removed_at IS NULL THEN j.visibility ELSE 'HIDDEN' END
                             FROM journeys j WHERE j.id = x.subject_id)
        WHEN 'screenshot' THEN (SELECT CASE WHEN s.removed_at IS NULL THEN s.visibility ELSE 'HIDDEN' END
                                FROM screenshots s WHERE s.id = x.subject_id)
        WHEN 'entry' THEN (SELECT CASE WHEN e.ignored THEN 'HIDDEN' ELSE coalesce((SELECT pr.library_visibility
                             FROM profiles pr WHERE pr.account_id = x.account_id), 'PUBLIC') END
                           FROM library_entries e WHERE e.id = x.subject_id)
      END, 'HIDDEN') AS visibility
    FROM activity_items x`;

export async function up(knex: Knex): Promise<void> {
  for (const table of Object.keys(REMOVABLE)) {
    await knex.schema.alterTable(table, (t) => {
      t.timestamp('removed_at', { useTz: true });
    });
  }
  for (const table of ['reviews', 'journeys', 'screenshots']) {
    await knex.schema.alterTable(table, (t) => {
      t.integer('likes').notNullable().defaultTo(0);
    });
  }
  // {award id: count}; `{}` when none.
  for (const table of ['reviews', 'journeys', 'screenshots', 'lists']) {
    await knex.schema.alterTable(table, (t) => {
      t.jsonb('awards').notNullable().defaultTo('{}');
    });
  }
  await knex.raw('CREATE UNIQUE INDEX play_sessions_one_live ON play_sessions (account_id) WHERE ended_at IS NULL');
  // The owner's sessions newest first (GET /journal/sessions walks it by `before`), and a journey's sessions.
  await knex.raw('CREATE INDEX play_sessions_account_created ON play_sessions (account_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX play_sessions_account_game ON play_sessions (account_id, game_id, started_at)');
  // At most 20 copies per game: counted by owner and game.
  await knex.raw('CREATE INDEX library_copies_account_game ON library_copies (account_id, game_id)');

  await knex.raw(VIEW_WITH_REMOVAL);
  for (const [table, kind] of Object.entries(REMOVABLE)) {
    await knex.raw(`DROP TRIGGER ${table}_activity_visibility ON ${table}`);
    await knex.raw(`CREATE TRIGGER ${table}_activity_visibility AFTER UPDATE OF visibility, removed_at ON ${table}
      FOR EACH ROW WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility OR OLD.removed_at IS DISTINCT FROM NEW.removed_at)
      EXECUTE FUNCTION activity_items_follow_subject('${kind}')`);
  }

  await knex.raw(`CREATE TRIGGER library_entries_activity_visibility AFTER UPDATE OF ignored ON library_entries
    FOR EACH ROW WHEN (OLD.ignored IS DISTINCT FROM NEW.ignored) EXECUTE FUNCTION activity_items_follow_subject('entry')`);

  // A deleted subject takes its items and the comments on it, per statement (an account's cascade is one
  // join): TG_ARGV is the activity kind and the comment kind ('' when nothing comments on it).
  await knex.raw(`CREATE FUNCTION content_subjects_gone() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    EXECUTE 'DELETE FROM activity_items x WHERE x.kind = $1 AND x.subject_id IN (SELECT id FROM subjects)' USING TG_ARGV[0];
    IF TG_ARGV[1] <> '' THEN
      EXECUTE 'DELETE FROM comments c WHERE c.target_kind = $1 AND c.target_id IN (SELECT id FROM subjects)' USING TG_ARGV[1];
    END IF;
    RETURN NULL; END $$`);
  for (const [table, { kind, comments }] of Object.entries(SUBJECTS)) {
    await knex.raw(`DROP TRIGGER ${table}_activity_gone ON ${table}`);
    await knex.raw(`CREATE TRIGGER ${table}_activity_gone AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS subjects FOR EACH STATEMENT
      EXECUTE FUNCTION content_subjects_gone('${kind}', '${comments ?? ''}')`);
  }

  await knex.schema.createTable('rolling_uses', (t) => {
    t.bigIncrements('id');
    // `<cap>:<subject>`, e.g. `reviews:<account id>`.
    t.text('key').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['key', 'at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rolling_uses');
  for (const [table, { kind }] of Object.entries(SUBJECTS)) {
    await knex.raw(`DROP TRIGGER ${table}_activity_gone ON ${table}`);
    await knex.raw(`CREATE TRIGGER ${table}_activity_gone AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS subjects FOR EACH STATEMENT EXECUTE FUNCTION activity_items_follow_subjects('${kind}')`);
  }
  await knex.raw('DROP FUNCTION content_subjects_gone()');
  await knex.raw('DROP TRIGGER library_entries_activity_visibility ON library_entries');
  for (const [table, kind] of Object.entries(REMOVABLE)) {
    await knex.raw(`DROP TRIGGER ${table}_activity_visibility ON ${table}`);
    await knex.raw(`CREATE TRIGGER ${table}_activity_visibility AFTER UPDATE OF visibility ON ${table}
      FOR EACH ROW WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility)
      EXECUTE FUNCTION activity_items_follow_subject('${kind}')`);
  }
  await knex.raw('DROP INDEX library_copies_account_game');
  await knex.raw('DROP INDEX play_sessions_account_game');
  await knex.raw('DROP INDEX play_sessions_account_created');
  await knex.raw('DROP INDEX play_sessions_one_live');
  // The view reads removed_at: it goes back before the columns do.
  await knex.raw(`CREATE OR REPLACE VIEW activity_item_visibility AS
    SELECT x.id, coalesce(CASE x.kind
        WHEN 'review' THEN (SELECT r.visibility FROM reviews r WHERE r.id = x.subject_id)
        WHEN 'session' THEN (SELECT p.visibility FROM play_sessions p WHERE p.id = x.subject_id)
        WHEN 'list' THEN (SELECT l.visibility FROM lists l WHERE l.id = x.subject_id)
        WHEN 'journey' THEN (SELECT j.visibility FROM journeys j WHERE j.id = x.subject_id)
        WHEN 'screenshot' THEN (SELECT CASE WHEN s.removed_at IS NULL THEN s.visibility ELSE 'HIDDEN' END
                                FROM screenshots s WHERE s.id = x.subject_id)
        WHEN 'entry' THEN (SELECT coalesce((SELECT pr.library_visibility FROM profiles pr WHERE pr.account_id = x.account_id), 'PUBLIC')
                           FROM library_entries e WHERE e.id = x.subject_id)
      END, 'HIDDEN') AS visibility
    FROM activity_items x`);
  for (const table of ['reviews', 'journeys', 'screenshots', 'lists']) {
    await knex.schema.alterTable(table, (t) => t.dropColumn('awards'));
  }
  for (const table of ['reviews', 'journeys', 'screenshots']) {
    await knex.schema.alterTable(table, (t) => t.dropColumn('likes'));
  }
  for (const table of Object.keys(REMOVABLE)) {
    await knex.schema.alterTable(table, (t) => t.dropColumn('removed_at'));
  }
}
