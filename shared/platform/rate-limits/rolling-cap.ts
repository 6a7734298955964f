// Daily and hourly caps on what people write (DECISIONS: Refusals): rolling windows. Each cap and subject
// has one row holding its uses inside the window (`rolling_windows`). Taking a use is one INSERT ... ON
// CONFLICT DO UPDATE ... WHERE: it locks the row and tests its latest version, so parallel writers queue on
// it and exactly `limit` pass, without a lock held from an earlier statement. Written in the statement or
// transaction of the write it limits, a write that rolls back takes its use with it. Deleting what was
// written gives nothing back: the cap is on writing, not on holding.
import type { Knex } from 'knex';
import { raw } from 'objection';
import { queryPrepared } from '../db/prepared.js';
import { rateLimited } from '../errors.js';
import { RollingWindow } from './models.js';

export interface RollingCap {
  name: string;
  limit: number;
  windowSeconds: number;
}

export const rollingKey = (cap: RollingCap, subject: string) => `${cap.name}:${subject}`;

/**
 * SQL that takes one use of a cap when its window has room, answering a row when it did. The placeholders
 * are the caller's: `key`, `windowSeconds` and `limit` (SQL expressions, e.g. `$7`), so a write can take its
 * use in its own statement; `from` (e.g. `FROM game`) makes the use depend on rows the write found, so a
 * write refused for want of them takes none.
 */
export function rollingUseSql(key: string, windowSeconds: string, limit: string, from = ''): string {
  const inWindow = `ARRAY(SELECT u FROM unnest(w.uses) u WHERE u > now() - make_interval(secs => ${windowSeconds}::int))`;
  return `INSERT INTO rolling_windows AS w (key, uses, last_use) SELECT ${key}::text, ARRAY[now()], now() ${from}
    ON CONFLICT (key) DO UPDATE SET uses = ${inWindow} || now(), last_use = now()
    WHERE cardinality(${inWindow}) < ${limit}::int
    RETURNING w.key`;
}

const TAKE_USE = rollingUseSql('$1', '$2', '$3');

/** The 429 of a full window: `retry_after` is when the oldest use in it leaves. */
export async function rollingCapRefusal(knex: Knex, cap: RollingCap, subject: string) {
  const [row] = (await queryPrepared(
    knex,
    'jogatina_rolling_oldest',
    `SELECT (SELECT min(u) FROM unnest(uses) u WHERE u > now() - make_interval(secs => $2::int)) AS oldest
     FROM rolling_windows WHERE key = $1`,
    [rollingKey(cap, subject), cap.windowSeconds],
  )) as Array<{ oldest: Date | null }>;
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : Date.now();
  const waitMs = oldest + cap.windowSeconds * 1000 - Date.now();
  return rateLimited(Math.max(waitMs, 1000) / 1000);
}

/** Takes one use of `cap` for `subject` in `trx` (one round trip), or throws 429 `rate_limited` with `retry_after`. */
export async function takeRollingUse(trx: Knex.Transaction, cap: RollingCap, subject: string): Promise<void> {
  const rows = await queryPrepared(trx, 'jogatina_rolling_use', TAKE_USE, [
    rollingKey(cap, subject),
    cap.windowSeconds,
    cap.limit,
  ]);
  if (rows.length === 0) throw await rollingCapRefusal(trx, cap, subject);
}

/** Forgets windows whose last use is older than every window (the longest cap is a day): the retention purge. */
export async function purgeRollingUses(knex: Knex, olderThanSeconds = 2 * 86400): Promise<number> {
  return RollingWindow.query(knex)
    .where('last_use', '<', raw('now() - make_interval(secs => ?)', [olderThanSeconds]))
    .delete();
}
