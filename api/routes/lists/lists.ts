// Lists and their folders, written by their owner (DECISIONS: Lists).
import type { VersionedRoutes } from '../versioned.js';

export function listRoutes(api: VersionedRoutes): void {
  void api;
}
