// The Arcade slug (spec: POST /account/apps/{id}/arcade): the store page's address, 3 to 40 of a-z, 0-9
// and hyphen, no hyphen at either end, and not a word the site needs for itself.
import { invalidRequest } from '../platform/errors.js';

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

/** Words that name pages of the site or suggest the service speaks for the game. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'about',
  'admin',
  'api',
  'app',
  'apps',
  'arcade',
  'developers',
  'docs',
  'help',
  'jogatina',
  'login',
  'logout',
  'new',
  'official',
  'play',
  'search',
  'settings',
  'signin',
  'signup',
  'staff',
  'support',
  'www',
]);

/** Throws 400 `slug_invalid` or `slug_reserved`. */
export function checkSlug(slug: unknown): asserts slug is string {
  if (typeof slug !== 'string' || !SLUG_PATTERN.test(slug)) {
    throw invalidRequest('slug must be 3 to 40 of a-z, 0-9 and hyphens, with no hyphen at either end.', {
      reason: 'slug_invalid',
      field: 'slug',
    });
  }
  if (RESERVED_SLUGS.has(slug)) {
    throw invalidRequest('This slug is reserved.', { reason: 'slug_reserved', field: 'slug' });
  }
}
