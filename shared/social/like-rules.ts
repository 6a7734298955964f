// The rules of likes that need no database (DECISIONS: Likes and comments): what can be liked, by which
// kind a path names it, and that nobody likes their own thing.
import { invalidRequest, notFound } from '../platform/errors.js';
import type { SubjectKind } from './subjects.js';

/** What can be liked, as the path and GET /likes name it. */
export const LIKE_KINDS = ['review', 'list', 'screenshot', 'journey'] as const;
export type LikeKind = (typeof LIKE_KINDS)[number];

/** The thing each like kind is (diary sessions and profiles take comments, not likes). */
export const LIKE_SUBJECTS: Record<LikeKind, SubjectKind> = {
  review: 'REVIEW',
  list: 'LIST',
  screenshot: 'SCREENSHOT',
  journey: 'JOURNEY',
};

/** GET /likes: `limit` 1 to 100, 20 when omitted (DECISIONS: Cursor reads). */
export const LIKES_PAGE = { min: 1, max: 100, default: 20 };

export function isLikeKind(value: string): value is LikeKind {
  return (LIKE_KINDS as readonly string[]).includes(value);
}

/** A path kind that is not likeable names nothing: 404, as a path value naming no content is elsewhere. */
export function unlikeableKind() {
  return notFound('Only reviews, lists, screenshots and journeys can be liked.');
}

/** Pure: refuses a like of one's own thing (400 `own_content`). */
export function refuseOwnContent(ownerId: string, likerId: string): void {
  if (ownerId === likerId) throw invalidRequest('You cannot like what you posted.', { reason: 'own_content' });
}
