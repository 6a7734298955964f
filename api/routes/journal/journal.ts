// The owner's journal: play sessions and journeys (DECISIONS: Journal).
import type { VersionedRoutes } from '../versioned.js';

export function journalRoutes(_api: VersionedRoutes): void {}
