// Reviews: written by their author, read by anyone who may see them (DECISIONS: Reviews).
import type { VersionedRoutes } from '../versioned.js';

export function reviewRoutes(_api: VersionedRoutes): void {}
