// Minerals and awards (DECISIONS: Minerals and awards). Minerals are rows of a ledger; an account's balance
// is their sum, kept beside it in `mineral_balances` by the ledger itself: a row inserted moves its
// account's balance in the same statement (a BEFORE INSERT trigger), so no writer can add one without the
// other, and the balance's CHECK (balance >= 0) refuses any row that would take it below zero.
//
// The balance row also carries:
// - `lifetime`: the sum of every ledger row but spending (`award_given`): what was ever earned, credited or
//   granted, less what deletions took back. Levels come from it (mineral_level), so spending never lowers
//   a level and a deletion's take-back can;
// - `posted_on`, `posted_today`: what posting asked for on that UTC day, uncapped. A posting row's delta is
//   what is left under the daily cap, and the row's upsert both locks the balance row and re-reads its
//   latest version (INSERT ... ON CONFLICT DO UPDATE), so two posts at once queue on it and the second sees
//   the first: at 45 earned, two reviews give 5 and 0. Keeping the asked sum (not the earned one) lets the
//   one upsert tell what it granted from what it returns: granted = least(asked, cap - (posted_today -
//   asked)), at least 0. Take-backs do not give the day's room back.
//
// Posting earns through triggers on the things, so the single-statement writes (POST /reviews) stay one
// round trip, and the work is one ledger insert and one indexed upsert of the balance row. A deleted thing
// takes back what its own posting row earned (found by its subject, one index probe), never more than the
// balance. An account's deletion takes back nothing (its ledger goes with it).
//
// Awards: one row per giver, thing and award; the thing's `awards` counter ({award id: count}) is moved by
// the database whenever an award row is really inserted or deleted (as likes move `likes`), and a deleted
// thing takes its awards (the display), refunding nobody: the ledger keeps the debit and the credit.
import type { Knex } from 'knex';

/** The daily cap on posting (shared/wallet/rows.ts DAILY_CAP; a test holds the two equal). */
const DAILY_CAP = 50;

const REASONS = ['posted', 'taken_back', 'award_given', 'award_received', 'grant', 'opening'];
/** The reasons whose rows take minerals away. */
const DEBITS = ['taken_back', 'award_given'];

/**
 * Each thing that earns, with how the ledger names it (the kind and id clients use, as notifications do),
 * what it earns, and the column clients name it by.
 */
const EARNERS: Array<{ table: string; kind: string; amount: number; apiColumn: 'id' | 'public_id' }> = [
  { table: 'reviews', kind: 'REVIEW', amount: 10, apiColumn: 'id' },
  { table: 'lists', kind: 'LIST', amount: 5, apiColumn: 'public_id' },
  { table: 'screenshots', kind: 'SCREENSHOT', amount: 2, apiColumn: 'public_id' },
  { table: 'play_sessions', kind: 'DIARY', amount: 2, apiColumn: 'id' },
];

/** What can be awarded, by the kind POST /awards names it. */
const AWARDED: Record<string, string> = {
  reviews: 'REVIEW',
  lists: 'LIST',
  screenshots: 'SCREENSHOT',
  journeys: 'JOURNEY',
};

const quoted = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  // 1 plus the number of thresholds 100, 300, 600, 1000, ... (50k(k+1)) that `lifetime` reached: k is the
  // floor of (sqrt(100 + 8·lifetime) - 10) / 20. On a threshold 100 + 8·lifetime is the square of 10(2k+1),
  // whose float8 root is exact (integers below 2^53), so a lifetime on a threshold counts it; off one, the
  // root is too far from a whole number for rounding to cross it. A fifth of numeric's cost.
  await knex.raw(`CREATE FUNCTION mineral_level(lifetime bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT 1 + floor((sqrt((100 + 8 * greatest(lifetime, 0))::float8) - 10) / 20)::int $$`);

  await knex.schema.alterTable('mineral_balances', (t) => {
    t.bigInteger('lifetime').notNullable().defaultTo(0);
    t.date('posted_on');
    t.integer('posted_today').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('mineral_ledger', (t) => {
    t.bigIncrements('id');
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.integer('delta').notNullable();
    t.text('reason').notNullable();
    // The thing the row is about, as clients name it (REVIEW, LIST, SCREENSHOT, DIARY, JOURNEY and its id);
    // kept when the thing is deleted: the ledger is history.
    t.text('subject_kind');
    t.text('subject_id');
    // The award of an award's debit or credit.
    t.text('award');
    // The operator's words for a grant; what an opening balance was.
    t.text('note');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`reason in (${quoted(REASONS)})`, [], 'mineral_ledger_reason_known');
    t.check(`delta <> 0 AND (delta < 0) = (reason in (${quoted(DEBITS)}))`, [], 'mineral_ledger_sign');
    t.check('(subject_kind IS NULL) = (subject_id IS NULL)', [], 'mineral_ledger_subject_whole');
  });
  // GET /wallet/ledger walks an account's rows newest first.
  await knex.raw('CREATE INDEX mineral_ledger_newest ON mineral_ledger (account_id, created_at DESC, id DESC)');
  // What a thing's posting earned: the take-back finds it here, and a thing earns once (a session closed again).
  await knex.raw(`CREATE UNIQUE INDEX mineral_ledger_one_posting ON mineral_ledger (subject_kind, subject_id)
    WHERE reason = 'posted'`);

  // Balances written before the ledger (the demo seed's) become opening rows, so every balance is its
  // ledger's sum from here on; what they earned before is unknown, so their lifetime is their balance.
  await knex.raw(`INSERT INTO mineral_ledger (account_id, delta, reason, note)
    SELECT account_id, balance, 'opening', 'balance before the ledger' FROM mineral_balances WHERE balance > 0`);
  await knex.raw('UPDATE mineral_balances SET lifetime = balance, level = mineral_level(balance)');

  await knex.raw(`CREATE FUNCTION mineral_ledger_applied() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      today date := (now() AT TIME ZONE 'UTC')::date;
      asked int := NEW.delta;
      posted int;
      held bigint;
    BEGIN
      IF NEW.reason = 'posted' THEN
        INSERT INTO mineral_balances AS b (account_id, balance, lifetime, level, posted_on, posted_today)
          VALUES (NEW.account_id, least(asked, ${DAILY_CAP}), least(asked, ${DAILY_CAP}),
            mineral_level(least(asked, ${DAILY_CAP})), today, asked)
          ON CONFLICT (account_id) DO UPDATE SET
            balance = b.balance + greatest(0, least(asked, ${DAILY_CAP} - CASE WHEN b.posted_on = today THEN b.posted_today ELSE 0 END)),
            lifetime = b.lifetime + greatest(0, least(asked, ${DAILY_CAP} - CASE WHEN b.posted_on = today THEN b.posted_today ELSE 0 END)),
            level = mineral_level(b.lifetime + greatest(0, least(asked, ${DAILY_CAP} - CASE WHEN b.posted_on = today THEN b.posted_today ELSE 0 END))),
            posted_today = CASE WHEN b.posted_on = today THEN b.posted_today ELSE 0 END + asked,
            posted_on = today,
            updated_at = now()
          RETURNING b.posted_today INTO posted;
        NEW.delta := greatest(0, least(asked, ${DAILY_CAP} - (posted - asked)));
        -- Over the cap: nothing earned, no row.
        IF NEW.delta = 0 THEN RETURN NULL; END IF;
        RETURN NEW;
      END IF;
      IF NEW.reason = 'taken_back' THEN
        SELECT b.balance INTO held FROM mineral_balances b WHERE b.account_id = NEW.account_id FOR UPDATE;
        IF coalesce(held, 0) = 0 THEN RETURN NULL; END IF;
        NEW.delta := -least(-NEW.delta, held);
        UPDATE mineral_balances SET balance = balance + NEW.delta, lifetime = greatest(lifetime + NEW.delta, 0),
          level = mineral_level(lifetime + NEW.delta), updated_at = now()
          WHERE account_id = NEW.account_id;
        RETURN NEW;
      END IF;
      IF NEW.delta < 0 THEN
        -- Spending: the balance's CHECK refuses a debit it cannot pay. An update, not an upsert: an
        -- insert's proposed row is checked before its conflict is found, and a debit's would be negative.
        UPDATE mineral_balances SET balance = balance + NEW.delta, updated_at = now()
          WHERE account_id = NEW.account_id;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'no minerals to spend' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'mineral_balances_positive', TABLE = 'mineral_balances';
        END IF;
        RETURN NEW;
      END IF;
      -- Credits and grants.
      INSERT INTO mineral_balances AS b (account_id, balance, lifetime, level)
        VALUES (NEW.account_id, NEW.delta, NEW.delta, mineral_level(NEW.delta))
        ON CONFLICT (account_id) DO UPDATE SET
          balance = b.balance + NEW.delta,
          lifetime = b.lifetime + NEW.delta,
          level = mineral_level(b.lifetime + NEW.delta),
          updated_at = now();
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER mineral_ledger_applied BEFORE INSERT ON mineral_ledger
    FOR EACH ROW EXECUTE FUNCTION mineral_ledger_applied()`);
  // The ledger is history: what a row moved, and whose, never changes (the balance holds its sum).
  await knex.raw(`CREATE FUNCTION mineral_ledger_kept() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    RAISE EXCEPTION 'a mineral_ledger row''s account, amount and reason never change' USING ERRCODE = 'restrict_violation';
  END $$`);
  await knex.raw(`CREATE TRIGGER mineral_ledger_kept BEFORE UPDATE OF account_id, delta, reason ON mineral_ledger
    FOR EACH ROW EXECUTE FUNCTION mineral_ledger_kept()`);

  // TG_ARGV: the ledger's kind, the amount, the column clients name the thing by.
  await knex.raw(`CREATE FUNCTION minerals_earned() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      api_id text;
    BEGIN
      IF TG_ARGV[2] = 'public_id' THEN api_id := NEW.public_id; ELSE api_id := NEW.id::text; END IF;
      -- A session closed, reopened and closed again earned when it was first closed. (Two IFs: the lookup
      -- alone would make the common test a query.)
      IF TG_OP = 'UPDATE' THEN
        IF EXISTS (SELECT 1 FROM mineral_ledger e
            WHERE e.reason = 'posted' AND e.subject_kind = TG_ARGV[0] AND e.subject_id = api_id) THEN
          RETURN NULL;
        END IF;
      END IF;
      INSERT INTO mineral_ledger (account_id, delta, reason, subject_kind, subject_id)
        VALUES (NEW.account_id, TG_ARGV[1]::int, 'posted', TG_ARGV[0], api_id);
      RETURN NULL;
    END $$`);
  // Per statement: a category's deletion of many things is one join against the ledger. The account must
  // still exist: its own deletion cascades here, and its ledger goes with it.
  await knex.raw(`CREATE FUNCTION minerals_taken_back() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF TG_ARGV[1] = 'public_id' THEN
      INSERT INTO mineral_ledger (account_id, delta, reason, subject_kind, subject_id)
        SELECT e.account_id, -e.delta, 'taken_back', e.subject_kind, e.subject_id
        FROM gone g JOIN mineral_ledger e
          ON e.reason = 'posted' AND e.subject_kind = TG_ARGV[0] AND e.subject_id = g.public_id
        WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = e.account_id)
        ORDER BY e.account_id;
    ELSE
      INSERT INTO mineral_ledger (account_id, delta, reason, subject_kind, subject_id)
        SELECT e.account_id, -e.delta, 'taken_back', e.subject_kind, e.subject_id
        FROM gone g JOIN mineral_ledger e
          ON e.reason = 'posted' AND e.subject_kind = TG_ARGV[0] AND e.subject_id = g.id::text
        WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = e.account_id)
        ORDER BY e.account_id;
    END IF;
    RETURN NULL;
  END $$`);
  for (const { table, kind, amount, apiColumn } of EARNERS) {
    const args = `'${kind}', '${amount}', '${apiColumn}'`;
    if (table === 'play_sessions') {
      // A session earns when it is closed: written closed, or its end set.
      await knex.raw(`CREATE TRIGGER play_sessions_minerals_earned AFTER INSERT ON play_sessions
        FOR EACH ROW WHEN (NEW.ended_at IS NOT NULL) EXECUTE FUNCTION minerals_earned(${args})`);
      await knex.raw(`CREATE TRIGGER play_sessions_minerals_closed AFTER UPDATE OF ended_at ON play_sessions
        FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL) EXECUTE FUNCTION minerals_earned(${args})`);
    } else {
      await knex.raw(`CREATE TRIGGER ${table}_minerals_earned AFTER INSERT ON ${table}
        FOR EACH ROW EXECUTE FUNCTION minerals_earned(${args})`);
    }
    await knex.raw(`CREATE TRIGGER ${table}_minerals_taken_back AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION minerals_taken_back('${kind}', '${apiColumn}')`);
  }

  await knex.schema.createTable('awards', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('giver_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // The thing's row id (lists and screenshots too: their public id is only how clients name them).
    t.text('subject_kind').notNullable();
    t.uuid('subject_id').notNullable();
    t.text('award').notNullable();
    // What the giver paid (the catalog's cost when given).
    t.integer('cost').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['giver_id', 'subject_kind', 'subject_id', 'award'], { indexName: 'awards_once' });
    t.check(`subject_kind in (${quoted(Object.values(AWARDED))})`, [], 'awards_kind_known');
    t.check('cost > 0', [], 'awards_cost_positive');
    // A thing's awards, when it is deleted.
    t.index(['subject_kind', 'subject_id']);
  });

  // {award id: count}: a count that reaches 0 leaves the map, so a thing without awards shows `{}`.
  await knex.raw(`CREATE FUNCTION awards_step(counts jsonb, award text, step int) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN coalesce((counts ->> award)::int, 0) + step <= 0 THEN counts - award
        ELSE jsonb_set(counts, ARRAY[award], to_jsonb(coalesce((counts ->> award)::int, 0) + step)) END $$`);
  await knex.raw(`CREATE FUNCTION awards_counted() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      row_ awards;
      step int;
    BEGIN
      IF TG_OP = 'INSERT' THEN row_ := NEW; step := 1; ELSE row_ := OLD; step := -1; END IF;
      CASE row_.subject_kind
        WHEN 'REVIEW' THEN UPDATE reviews SET awards = awards_step(awards, row_.award, step) WHERE id = row_.subject_id;
        WHEN 'LIST' THEN UPDATE lists SET awards = awards_step(awards, row_.award, step) WHERE id = row_.subject_id;
        WHEN 'SCREENSHOT' THEN UPDATE screenshots SET awards = awards_step(awards, row_.award, step) WHERE id = row_.subject_id;
        WHEN 'JOURNEY' THEN UPDATE journeys SET awards = awards_step(awards, row_.award, step) WHERE id = row_.subject_id;
      END CASE;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER awards_counted AFTER INSERT OR DELETE ON awards
    FOR EACH ROW EXECUTE FUNCTION awards_counted()`);
  await knex.raw(`CREATE FUNCTION awards_subjects_gone() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    DELETE FROM awards w WHERE w.subject_kind = TG_ARGV[0] AND w.subject_id IN (SELECT id FROM gone);
    RETURN NULL; END $$`);
  for (const [table, kind] of Object.entries(AWARDED)) {
    await knex.raw(`CREATE TRIGGER ${table}_awards_gone AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION awards_subjects_gone('${kind}')`);
    // GET /search/counts counts awarded things: few among many, found by these.
    await knex.raw(`CREATE INDEX ${table}_awarded ON ${table} (created_at) WHERE awards <> '{}'::jsonb`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(AWARDED)) {
    await knex.raw(`DROP INDEX ${table}_awarded`);
    await knex.raw(`DROP TRIGGER ${table}_awards_gone ON ${table}`);
  }
  await knex.raw('DROP FUNCTION awards_subjects_gone()');
  await knex.schema.dropTable('awards');
  await knex.raw('DROP FUNCTION awards_counted()');
  await knex.raw('DROP FUNCTION awards_step(jsonb, text, int)');
  for (const { table } of EARNERS) {
    await knex.raw(`DROP TRIGGER ${table}_minerals_taken_back ON ${table}`);
    await knex.raw(`DROP TRIGGER ${table}_minerals_earned ON ${table}`);
  }
  await knex.raw('DROP TRIGGER play_sessions_minerals_closed ON play_sessions');
  await knex.raw('DROP FUNCTION minerals_taken_back()');
  await knex.raw('DROP FUNCTION minerals_earned()');
  await knex.schema.dropTable('mineral_ledger');
  await knex.raw('DROP FUNCTION mineral_ledger_kept()');
  await knex.raw('DROP FUNCTION mineral_ledger_applied()');
  await knex.schema.alterTable('mineral_balances', (t) => {
    t.dropColumn('posted_today');
    t.dropColumn('posted_on');
    t.dropColumn('lifetime');
  });
  await knex.raw('DROP FUNCTION mineral_level(bigint)');
}
