// Comments on profiles and posted things (DECISIONS: Likes and comments).
import type { VersionedRoutes } from '../versioned.js';

export function commentRoutes(api: VersionedRoutes): void {
  void api;
}
