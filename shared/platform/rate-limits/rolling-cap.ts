// Daily and hourly caps on what people write (DECISIONS: Refusals): rolling windows, counted over a log of
// uses (`rolling_uses`). A use is taken inside the transaction of the write it limits, after a lock on its
// key, so parallel writes queue on the key and exactly `limit` pass; a write that rolls back takes its use
// with it. Deleting what was written gives nothing back: the cap is on writing, not on holding.
import type { Knex } from 'knex';
import { queryPrepared } from '../db/prepared.js';
import { rateLimited } from '../errors.js';

export interface RollingCap {
  name: string;
  limit: number;
  windowSeconds: number;
}

const ROLLING_USE = `WITH recent AS (
    SELECT at FROM rolling_uses WHERE key = $1 AND at > now() - make_interval(secs => $2::int)
    ORDER BY at DESC LIMIT $3::int),
  window_ AS (SELECT count(*)::int AS used, min(at) AS oldest FROM recent),
  taken AS (INSERT INTO rolling_uses (key) SELECT $1 FROM window_ WHERE used < $3::int)
  SELECT used, oldest FROM window_`;

/**
 * Takes one use of `cap` for `subject` in `trx`, or throws 429 `rate_limited` with `retry_after`. Two
 * statements: the lock first, so the count that follows is read after every writer before has committed.
 */
export async function takeRollingUse(trx: Knex.Transaction, cap: RollingCap, subject: string): Promise<void> {
  const key = `${cap.name}:${subject}`;
  // Held to the end of the transaction: the next writer of this key counts after this one committed.
  await queryPrepared(trx, 'jogatina_rolling_lock', 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
  // Counts the window's last `limit` uses and takes one when there is room, in one round trip, prepared:
  // planning it cost more than running it.
  const rows = (await queryPrepared(trx, 'jogatina_rolling_use', ROLLING_USE, [
    key,
    cap.windowSeconds,
    cap.limit,
  ])) as Array<{ used: number; oldest: Date | null }>;
  const { used, oldest } = rows[0];
  if (used >= cap.limit) {
    // The oldest of the last `limit` uses leaves the window first.
    const waitMs = new Date(oldest!).getTime() + cap.windowSeconds * 1000 - Date.now();
    throw rateLimited(Math.max(waitMs, 1000) / 1000);
  }
}

/** Forgets uses older than every window (the longest cap is a day): the retention purge calls it. */
export async function purgeRollingUses(knex: Knex, olderThanSeconds = 2 * 86400): Promise<number> {
  return knex('rolling_uses')
    .where('at', '<', knex.raw('now() - make_interval(secs => ?)', [olderThanSeconds]))
    .delete();
}
