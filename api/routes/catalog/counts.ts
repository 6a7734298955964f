// GET /search/counts (spec: catalog.read, read allowance; cached 60 seconds).
import { searchCounts } from '../../../shared/catalog/search-counts.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { CATALOG_DOCS } from './catalog-docs.js';

const countsQuery: SchemaObject = { type: 'object', properties: { q: { type: 'string', maxLength: 80 } } };

export function searchCountRoutes(api: VersionedRoutes): void {
  api.get(
    '/search/counts',
    scoped('catalog.read', 'read', { anonymous: true }),
    validate({ query: countsQuery }),
    CATALOG_DOCS.counts,
    async (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=60');
      ctx.body = { data: await searchCounts(ctx.services.knex, ctx.state.input.query.q as string | undefined) };
    },
  );
}
