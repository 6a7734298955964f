// Hourly allowances per API key (read, write, catalog). Each charge is one atomic upsert in PostgreSQL,
// so several API processes count together; the answer carries the numbers for `X-RateLimit-*`.
import type { Knex } from 'knex';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { ALLOWANCE_PER_HOUR, type Allowance } from './scopes.js';

export interface AllowanceState {
  resource: Allowance;
  limit: number;
  remaining: number;
  /** Epoch seconds when the window starts over. */
  reset: number;
  exceeded: boolean;
  retryAfterSeconds: number;
}

export class Allowances {
  private readonly limiters: Record<Allowance, RateLimiterPostgres>;

  constructor(knex: Knex, perHour: Record<Allowance, number> = ALLOWANCE_PER_HOUR) {
    const make = (resource: Allowance) =>
      new RateLimiterPostgres({
        storeClient: knex,
        storeType: 'knex',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: `allowance:${resource}`,
        points: perHour[resource],
        duration: 3600,
      });
    this.limiters = { read: make('read'), write: make('write'), catalog: make('catalog') };
  }

  async charge(keyId: string, resource: Allowance): Promise<AllowanceState> {
    const limiter = this.limiters[resource];
    let result: RateLimiterRes;
    let exceeded = false;
    try {
      result = await limiter.consume(keyId, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
      exceeded = true;
    }
    const msBeforeNext = Math.max(0, result.msBeforeNext);
    return {
      resource,
      limit: limiter.points,
      remaining: Math.max(0, result.remainingPoints),
      reset: Math.ceil((Date.now() + msBeforeNext) / 1000),
      exceeded,
      retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
    };
  }
}
