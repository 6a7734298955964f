// Limits on guessing (sign-in, second-factor codes, password proofs) and on daily allowances (uploads,
// submissions, checks...). Counts live in PostgreSQL, so every API process sees the same; past the limit
// the answer is 429 `rate_limited` with `retry_after`, before any check of the guess.
//
// Every use is taken before the work it limits, in one atomic statement per subject (an upsert that
// adds one and answers the new count): checking, doing and counting as three steps let 40 concurrent
// wrong passwords be checked 15 to 40 times instead of 5. What turns out not to be spent (a right
// password, a refused submission) is given back afterwards.
import type { Knex } from 'knex';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { raw } from 'objection';
import { RateLimit } from './models.js';
import { rateLimited } from '../errors.js';

export interface AttemptRule {
  name: string;
  failures: number;
  windowSeconds: number;
  /** The 429's reason; `too_many_attempts` unless the rule says otherwise. */
  reason?: string;
}

export class AttemptLimiter {
  private readonly limiter: RateLimiterPostgres;

  constructor(
    private readonly knex: Knex,
    private readonly rule: AttemptRule,
  ) {
    this.limiter = new RateLimiterPostgres({
      storeClient: knex,
      storeType: 'knex',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: `attempt:${rule.name}`,
      points: rule.failures,
      duration: rule.windowSeconds,
    });
  }

  /**
   * Takes one use from every subject, or none: when any subject is used up, nothing is taken and the
   * answer is 429. The returned reservation gives the uses back with `release()`.
   */
  async reserve(subjects: string[]): Promise<Reservation> {
    // Sorted, so two requests for the same subjects lock their rows in the same order (no deadlock).
    const keys = [...new Set(subjects.map((subject) => this.limiter.getKey(subject)))].sort();
    const now = Date.now();
    const full = await this.knex
      .transaction(async (trx) => {
        // A subject under its limit (or whose window ended) takes one use; a used-up one is left as it is
        // and not returned. Its row stays locked until the transaction ends, so a parallel request waits
        // and then sees the count this one left.
        const { rows: taken } = await trx.raw<{ rows: { key: string }[] }>(
          `INSERT INTO rate_limits (key, points, expire)
           SELECT key, 1, ?::bigint FROM unnest(?::text[]) AS key
         ON CONFLICT (key) DO UPDATE SET
           points = CASE WHEN rate_limits.expire <= ? THEN 1 ELSE rate_limits.points + 1 END,
           expire = CASE WHEN rate_limits.expire <= ? THEN EXCLUDED.expire ELSE rate_limits.expire END
         WHERE rate_limits.expire <= ? OR rate_limits.points < ?
         RETURNING key`,
          [now + this.rule.windowSeconds * 1000, keys, now, now, now, this.rule.failures],
        );
        if (taken.length === keys.length) return null;
        // All or none: what the other subjects took goes back with the rollback.
        const used = await RateLimit.query(trx)
          .whereIn('key', keys)
          .where('points', '>=', this.rule.failures)
          .select('expire');
        throw new UsedUp(Math.max(...used.map((row) => Number(row.expire) - now), 1000));
      })
      .catch((error: unknown) => {
        if (error instanceof UsedUp) return error;
        throw error;
      });
    if (full) throw rateLimited(full.waitMs / 1000, this.rule.reason ?? 'too_many_attempts');
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await this.giveBack(keys);
      },
    };
  }

  /**
   * One guess under the limit: a use is taken before `attempt` runs and given back when the guess was
   * right, so only failures count. An attempt that throws gives its use back too.
   */
  async guess(subjects: string[], attempt: () => Promise<boolean>): Promise<boolean> {
    const reservation = await this.reserve(subjects);
    let right: boolean;
    try {
      right = await attempt();
    } catch (error) {
      await reservation.release();
      throw error;
    }
    if (right) await reservation.release();
    return right;
  }

  /**
   * Work that spends one use when it succeeds: the use is taken first and given back when the work
   * throws (a refusal, or a fault), so parallel requests cannot all pass a limit with one place left.
   */
  async within<T>(subjects: string[], work: () => Promise<T>): Promise<T> {
    const reservation = await this.reserve(subjects);
    try {
      return await work();
    } catch (error) {
      await reservation.release();
      throw error;
    }
  }

  /** Counts one use and refuses past the limit, whatever follows (the use is never given back). */
  async spend(subjects: string[]): Promise<void> {
    await this.reserve(subjects);
  }

  /** What is left of the window's allowance for one subject. */
  async remaining(subject: string): Promise<number> {
    const state = await this.limiter.get(subject);
    return Math.max(0, this.rule.failures - (state?.consumedPoints ?? 0));
  }

  /**
   * One use back to each subject, in the window it was taken from: a window that ended meanwhile is left
   * alone (its reset already gave everything back), and a count never goes below zero.
   */
  private async giveBack(keys: string[]): Promise<void> {
    const now = Date.now();
    await RateLimit.query(this.knex)
      .whereIn('key', keys)
      .where((window) => window.whereNull('expire').orWhere('expire', '>', now))
      .patch({ points: raw('GREATEST(points - 1, 0)') });
  }
}

/** The rollback of a reservation that found a subject used up, with how long until it has room. */
class UsedUp extends Error {
  constructor(readonly waitMs: number) {
    super('used up');
  }
}

export interface Reservation {
  /** Gives the reserved uses back (once; later calls do nothing). */
  release(): Promise<void>;
}

const limiters = new WeakMap<Knex, Map<string, AttemptLimiter>>();

/** The process's limiter of `rule` on this database, made once (a limiter holds no counts itself). */
export function limiterFor(knex: Knex, rule: AttemptRule): AttemptLimiter {
  let byName = limiters.get(knex);
  if (!byName) limiters.set(knex, (byName = new Map()));
  let limiter = byName.get(rule.name);
  if (!limiter) byName.set(rule.name, (limiter = new AttemptLimiter(knex, rule)));
  return limiter;
}
