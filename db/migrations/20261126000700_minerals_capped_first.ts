// Posting past the day's cap earns nothing, and once an account's posting has reached the cap on a UTC day
// it stays there until the day ends (`posted_today` only grows within a day). So a post first looks at the
// balance row without locking it: a committed row at the cap settles it, and the post skips the ledger and
// the locked upsert of the balance row (an AFTER trigger, a ledger insert, its BEFORE trigger and the row
// lock, 12 to 15% of a review's statement in the database). A row seen below the cap goes the locked way,
// which decides exactly as before; what is seen cannot be over-counted, only found too low.
import type { Knex } from 'knex';

/** The daily cap (shared/wallet/rows.ts DAILY_CAP; migration minerals_and_awards). */
const DAILY_CAP = 50;

const EARNED = (capped: string) => `CREATE OR REPLACE FUNCTION minerals_earned() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      api_id text;
    BEGIN
      ${capped}
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
    END $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    EARNED(`IF EXISTS (SELECT 1 FROM mineral_balances b WHERE b.account_id = NEW.account_id
          AND b.posted_on = (now() AT TIME ZONE 'UTC')::date AND b.posted_today >= ${DAILY_CAP}) THEN
        RETURN NULL;
      END IF;`),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(EARNED(''));
}
