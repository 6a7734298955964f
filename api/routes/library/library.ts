// Every /library route, fixed segments first: `/library/copies` and `/library/import` are those routes, and
// a game whose slug is `copies` or `import` is reached by its id (DECISIONS: Paths).
import type { VersionedRoutes } from '../versioned.js';
import { libraryCopyRoutes } from './copies.js';
import { libraryEntryRoutes } from './entries.js';
import { libraryImportRoutes } from './import.js';

export function libraryRoutes(api: VersionedRoutes): void {
  libraryCopyRoutes(api);
  libraryImportRoutes(api);
  libraryEntryRoutes(api);
}
