// Hourly allowances per API key (read, write, catalog). The charge is an atomic upsert on `rate_limits`
// made in the same statement that resolves the key (key-caller.ts), so a keyed request costs one round
// trip; several API processes count together because the count lives in PostgreSQL.
import { ALLOWANCE_PER_HOUR, type Allowance } from './scopes.js';

export const WINDOW_MS = 3600 * 1000;

export interface AllowanceState {
  resource: Allowance;
  limit: number;
  remaining: number;
  /** Epoch seconds when the window starts over. */
  reset: number;
  exceeded: boolean;
  retryAfterSeconds: number;
}

export function allowanceCounterKey(resource: Allowance, keyId: string): string {
  return `allowance:${resource}:${keyId}`;
}

export class Allowances {
  constructor(readonly perHour: Record<Allowance, number> = ALLOWANCE_PER_HOUR) {}

  /** The state after a charge that left `points` used in a window ending at `expire` (epoch ms). */
  stateAfter(resource: Allowance, points: number, expire: number, now = Date.now()): AllowanceState {
    const limit = this.perHour[resource];
    const msLeft = Math.max(0, expire - now);
    return {
      resource,
      limit,
      remaining: Math.max(0, limit - points),
      reset: Math.ceil(expire / 1000),
      exceeded: points > limit,
      retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
    };
  }
}
