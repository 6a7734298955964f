// Likes on reviews, lists, screenshots and journeys (DECISIONS: Likes and comments).
import type { VersionedRoutes } from '../versioned.js';

export function likeRoutes(api: VersionedRoutes): void {
  void api;
}
