// Limits on guessing: sign-in, second-factor codes and password proofs. Failures are counted per account
// (or email) and per address in PostgreSQL, so every API process sees the same counts; past the limit
// the answer is 429 `rate_limited` with `retry_after`, before any check of the guess.
import type { Knex } from 'knex';
import { RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from '../errors.js';

export interface AttemptRule {
  name: string;
  failures: number;
  windowSeconds: number;
  /** The 429's reason; `too_many_attempts` unless the rule says otherwise. */
  reason?: string;
}

/** DECISIONS: 5 failures per 15 minutes per account and per address. */
export const SIGN_IN_ATTEMPTS: AttemptRule = { name: 'signin', failures: 5, windowSeconds: 15 * 60 };
/** Magic links and other mail a stranger can trigger: 5 per 15 minutes per address and per email. */
export const MAIL_REQUESTS: AttemptRule = { name: 'mail', failures: 5, windowSeconds: 15 * 60 };

/** Spec: 10 attempts at a password or code per 15 minutes per account before deleting data. */
export const DELETION_PROOFS: AttemptRule = { name: 'deletion', failures: 10, windowSeconds: 15 * 60 };

export class AttemptLimiter {
  private readonly limiter: RateLimiterPostgres;

  constructor(
    knex: Knex,
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

  /** Throws 429 when any of the subjects has used up its failures. */
  async check(subjects: string[]): Promise<void> {
    const states = await Promise.all(subjects.map((subject) => this.limiter.get(subject)));
    const blocked = states.filter(
      (state): state is RateLimiterRes => state !== null && state.consumedPoints >= this.rule.failures,
    );
    if (blocked.length > 0) {
      const waitMs = Math.max(...blocked.map((state) => state.msBeforeNext));
      throw rateLimited(waitMs / 1000, this.rule.reason ?? 'too_many_attempts');
    }
  }

  /** Counts one failure against every subject. */
  async fail(subjects: string[]): Promise<void> {
    await Promise.all(subjects.map((subject) => this.limiter.penalty(subject, 1)));
  }

  /** What is left of the window's allowance for one subject. */
  async remaining(subject: string): Promise<number> {
    const state = await this.limiter.get(subject);
    return Math.max(0, this.rule.failures - (state?.consumedPoints ?? 0));
  }

  /** Counts one use and refuses past the limit (for actions limited whether they succeed or not). */
  async spend(subjects: string[]): Promise<void> {
    await this.check(subjects);
    await this.fail(subjects);
  }
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
