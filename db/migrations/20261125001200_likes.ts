// Likes on reviews, lists, screenshots and journeys (DECISIONS: Likes and comments). One row per account and
// thing (the primary key makes a repeated like change nothing, however many arrive at once), and the
// thing's `likes` counter moved by the database itself whenever a like row is really inserted or deleted:
// by a route, by an account's deletion (the cascade) or by DELETE /account/data. The counter changes in
// the statement that changes the row, so it cannot drift from the rows under concurrency.
// A deleted thing takes its likes (DECISIONS: Shared rules), as content_subjects_gone takes its items and
// comments: a trigger of its own beside that one, so neither's arguments change.
import type { Knex } from 'knex';

/** Each likeable table with the kind a like names it by (the API's path kind). */
const LIKEABLE: Record<string, string> = {
  reviews: 'review',
  lists: 'list',
  screenshots: 'screenshot',
  journeys: 'journey',
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('likes', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // The thing's row id (lists and screenshots too: their public id is only how clients name them).
    t.text('subject_kind').notNullable();
    t.uuid('subject_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['account_id', 'subject_kind', 'subject_id']);
    t.check(
      `subject_kind in (${Object.values(LIKEABLE)
        .map((kind) => `'${kind}'`)
        .join(', ')})`,
      [],
      'likes_kind_known',
    );
    // GET /likes walks the caller's likes newest first.
    t.index(['account_id', 'created_at']);
    // A thing's likes, when it is deleted.
    t.index(['subject_kind', 'subject_id']);
  });

  // Per row: one like at a time is the common write, and its counter is one indexed update.
  await knex.raw(`CREATE FUNCTION likes_counted() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      row_ likes;
      step int;
    BEGIN
      IF TG_OP = 'INSERT' THEN row_ := NEW; step := 1; ELSE row_ := OLD; step := -1; END IF;
      CASE row_.subject_kind
        WHEN 'review' THEN UPDATE reviews SET likes = likes + step WHERE id = row_.subject_id;
        WHEN 'list' THEN UPDATE lists SET likes = likes + step WHERE id = row_.subject_id;
        WHEN 'screenshot' THEN UPDATE screenshots SET likes = likes + step WHERE id = row_.subject_id;
        WHEN 'journey' THEN UPDATE journeys SET likes = likes + step WHERE id = row_.subject_id;
      END CASE;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER likes_counted AFTER INSERT OR DELETE ON likes
    FOR EACH ROW EXECUTE FUNCTION likes_counted()`);

  await knex.raw(`CREATE FUNCTION likes_subjects_gone() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    DELETE FROM likes l WHERE l.subject_kind = TG_ARGV[0] AND l.subject_id IN (SELECT id FROM subjects);
    RETURN NULL; END $$`);
  for (const [table, kind] of Object.entries(LIKEABLE)) {
    await knex.raw(`CREATE TRIGGER ${table}_likes_gone AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS subjects FOR EACH STATEMENT EXECUTE FUNCTION likes_subjects_gone('${kind}')`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(LIKEABLE)) await knex.raw(`DROP TRIGGER ${table}_likes_gone ON ${table}`);
  await knex.raw('DROP FUNCTION likes_subjects_gone()');
  await knex.schema.dropTable('likes');
  await knex.raw('DROP FUNCTION likes_counted()');
}
