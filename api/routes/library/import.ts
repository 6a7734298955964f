// POST /library/import (DECISIONS: Library): up to 500 entries in one transaction, all or none.
import { importEntries, type ImportEntry } from '../../../shared/library/library-import.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { ENTRY_DOCS } from './entries-docs.js';
import { importBody } from './entry-schemas.js';

export function libraryImportRoutes(api: VersionedRoutes): void {
  api.post(
    '/library/import',
    scoped('library.write', 'write'),
    validate({ body: importBody }),
    ENTRY_DOCS.import,
    async (ctx) => {
      const { entries } = ctx.state.input.body as { entries: ImportEntry[] };
      ctx.body = { data: await importEntries(ctx.services.knex, ctx.state.caller!.account.id, entries) };
    },
  );
}
