// The owner's own copies (spec: GET /library/copies, Pagination rule 4): a session or a key holding
// library.read, spending the read allowance. Paged by an opaque cursor signed with the server secret.
import { COPY_LIMIT, COPY_SORTS, listCopies, type CopyQuery } from '../../../shared/library/copies.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { COPIES_DOC } from './copies-docs.js';

const copiesQuery: SchemaObject = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: COPY_LIMIT.min, maximum: COPY_LIMIT.max, default: COPY_LIMIT.default },
    sort: { type: 'string', enum: [...COPY_SORTS], default: 'newest' },
    // shared/platform/paging/cursor.ts refuses anything longer; the schema says so first.
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
};

export function libraryCopyRoutes(api: VersionedRoutes): void {
  api.get(
    '/library/copies',
    scoped('library.read', 'read'),
    validate({ query: copiesQuery }),
    COPIES_DOC,
    async (ctx) => {
      const { knex, auth } = ctx.services;
      const query = ctx.state.input.query as unknown as CopyQuery;
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = await listCopies(knex, auth.secret, ctx.state.caller!.account.id, query);
    },
  );
}
