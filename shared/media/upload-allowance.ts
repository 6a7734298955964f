// How often one account may upload images through the profile and account routes (spec Limits: 30
// uploads per 10 minutes). Counted in PostgreSQL like the other attempt limits, so every web process
// shares the count; a refused upload counts too, since the work of reading it was done.
import type { Knex } from 'knex';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';

export const IMAGE_UPLOADS = { name: 'image-upload', failures: 30, windowSeconds: 10 * 60, reason: 'too_many_uploads' };

/** Counts one upload by the account; 429 `rate_limited` reason `too_many_uploads` past the limit. */
export function spendImageUpload(knex: Knex, accountId: string): Promise<void> {
  return limiterFor(knex, IMAGE_UPLOADS).spend([accountId]);
}
