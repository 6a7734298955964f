// How often one account may upload images through the profile and account routes (spec Limits: 30
// uploads per 10 minutes). Counted in PostgreSQL like the other attempt limits, so every web process
// shares the count; a refused upload counts too, since the work of reading it was done.
import type { Knex } from 'knex';
import { AttemptLimiter } from '../auth/attempts.js';

export const IMAGE_UPLOADS = { name: 'image-upload', failures: 30, windowSeconds: 10 * 60, reason: 'too_many_uploads' };

const limiters = new WeakMap<Knex, AttemptLimiter>();

/** Counts one upload by the account; 429 `rate_limited` reason `too_many_uploads` past the limit. */
export function spendImageUpload(knex: Knex, accountId: string): Promise<void> {
  let limiter = limiters.get(knex);
  if (!limiter) {
    limiter = new AttemptLimiter(knex, IMAGE_UPLOADS);
    limiters.set(knex, limiter);
  }
  return limiter.spend([accountId]);
}
