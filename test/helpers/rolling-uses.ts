// The uses of a rolling cap as tests set and read them (shared/platform/rate-limits/rolling-cap.ts keeps
// them in one row per cap and subject): `key` is `<cap>:<subject>`, e.g. `reviews:<account id>`.
import { db } from '../../shared/platform/db/knex.js';

/** Adds `count` uses made `secondsAgo` seconds ago to the window of `key`. */
export async function seedRollingUses(key: string, count: number, secondsAgo = 60): Promise<void> {
  await db().raw(
    `INSERT INTO rolling_windows AS w (key, uses, last_use)
       SELECT ?, array_agg(now() - make_interval(secs => ?)), now() - make_interval(secs => ?) FROM generate_series(1, ?)
     ON CONFLICT (key) DO UPDATE SET uses = ARRAY(SELECT u FROM unnest(w.uses || excluded.uses) u ORDER BY u),
       last_use = greatest(w.last_use, excluded.last_use)`,
    [key, secondsAgo, secondsAgo, count],
  );
}

/** How many uses the window of `key` holds (those past the window included until the next use drops them). */
export async function rollingUsesOf(key: string): Promise<number> {
  const row = await db()('rolling_windows').where({ key }).first('uses');
  return row ? (row.uses as unknown[]).length : 0;
}

/** Moves the oldest use of `key` to `secondsAgo` seconds ago (past the window, it frees a use). */
export async function ageOldestRollingUse(key: string, secondsAgo: number): Promise<void> {
  await db().raw(
    `UPDATE rolling_windows SET uses = ARRAY(SELECT u FROM unnest(uses[2:]) u UNION ALL
       SELECT now() - make_interval(secs => ?) ORDER BY 1) WHERE key = ?`,
    [secondsAgo, key],
  );
}
