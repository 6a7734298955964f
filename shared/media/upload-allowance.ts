// How often one account may upload images through the profile and account routes. Counted in PostgreSQL
// like the other attempt limits, so every web process shares the count; a refused upload counts too, since
// the work of reading it was done.
//
// Two counters, neither spending the other's: layout images have the spec's own (Limits: 30 uploads per 10
// minutes), and avatars, banners and app icons, for which the spec names no rate, share one of ours of the
// same size, so the image pipeline stays bounded without a picture change eating into layout uploads.
import type { Knex } from 'knex';
import { limiterFor, type AttemptRule } from '../platform/rate-limits/attempt-limiter.js';

const REASON = 'too_many_uploads';

/** Layout images (spec Limits). The name is the counter's key in `rate_limits`: kept, so counts carry over. */
export const LAYOUT_IMAGE_UPLOADS: AttemptRule = {
  name: 'image-upload',
  failures: 30,
  windowSeconds: 10 * 60,
  reason: REASON,
};

/** Avatars, banners and app icons (ours: the spec gives them no rate). */
export const PICTURE_UPLOADS: AttemptRule = {
  name: 'picture-upload',
  failures: 30,
  windowSeconds: 10 * 60,
  reason: REASON,
};

/** Counts one upload by the account against `rule`; 429 `rate_limited` reason `too_many_uploads` past it. */
export function spendImageUpload(knex: Knex, rule: AttemptRule, accountId: string): Promise<void> {
  return limiterFor(knex, rule).spend([accountId]);
}
