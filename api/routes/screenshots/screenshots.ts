// Captures uploaded, edited and deleted by their author (DECISIONS: Screenshots).
import type { VersionedRoutes } from '../versioned.js';

export function screenshotWriteRoutes(api: VersionedRoutes): void {
  void api;
}
