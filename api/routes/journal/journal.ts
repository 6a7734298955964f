// The owner's journal: play sessions and journeys (DECISIONS: Journal).
import type { VersionedRoutes } from '../versioned.js';
import { journeyRoutes } from './journeys.js';
import { sessionRoutes } from './sessions.js';

export function journalRoutes(api: VersionedRoutes): void {
  sessionRoutes(api);
  journeyRoutes(api);
}
