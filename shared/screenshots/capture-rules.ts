// The rules of captures that need no database (DECISIONS: Screenshots; Shared rules): the description's
// bound, the quota and the daily cap, the refusals, and who may see one capture. A capture shows as the
// gallery shows it: its own visibility, nobody across a block either way, and a capture moderation removed
// to its author alone.
import type { RollingCap } from '../platform/rate-limits/rolling-cap.js';
import { forbidden, notFound } from '../platform/errors.js';
import type { LayoutQuota } from '../media/rows.js';

/** A description: up to 500 characters (code points). */
export const CAPTURE_DESCRIPTION = { max: 500 };

/**
 * Per account: 2,000 captures and 5 GB (in binary units, as the layout quota's 10 MB is 10485760 bytes),
 * counting every capture held, removed ones too (their files are still stored).
 */
export const CAPTURE_QUOTA = { limit: 2000, bytes_limit: 5 * 1024 ** 3 } as const;

/**
 * 100 uploads per account in any 24 hours. A use is taken when the upload is handed to the worker, so an
 * upload refused after that (its image, the quota) has used one: the work of reading it was done.
 */
export const CAPTURE_DAILY_CAP: RollingCap = { name: 'screenshots', limit: 100, windowSeconds: 86_400 };

export function captureNotFound() {
  return notFound('No capture you may see has this id.', 'screenshot_not_found');
}

export function captureRemoved() {
  return forbidden('removed', {}, 'Moderation removed this capture: it can be deleted, not changed.');
}

/** Whether an account may start another upload (the worker checks again with the stored size). */
export function quotaFull(quota: Pick<LayoutQuota, 'count' | 'bytes'>): boolean {
  return quota.count >= CAPTURE_QUOTA.limit || quota.bytes >= CAPTURE_QUOTA.bytes_limit;
}

/** Whether a capture of `bytes` more fits beside what is held. */
export function quotaTakes(quota: Pick<LayoutQuota, 'count' | 'bytes'>, bytes: number): boolean {
  return quota.count < CAPTURE_QUOTA.limit && quota.bytes + bytes <= CAPTURE_QUOTA.bytes_limit;
}
