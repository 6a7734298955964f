// GET /search/companies (spec: public; a key needs catalog.read and spends the catalog allowance).
import { COMPANY_PAGE, COMPANY_SORTS, searchCompanies, type CompanySearch } from '../../../shared/catalog/companies.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { CATALOG_DOCS } from './catalog-docs.js';

const companyQuery: SchemaObject = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 80 },
    role: { type: 'string', enum: ['publisher', 'developer'] },
    status: { type: 'string', enum: ['active'] },
    sort: { type: 'string', enum: [...COMPANY_SORTS] },
    page: pageParameter(COMPANY_PAGE.maxPage),
  },
};

export function companyRoutes(api: VersionedRoutes): void {
  api.get(
    '/search/companies',
    scoped('catalog.read', 'catalog', { anonymous: true }),
    validate({ query: companyQuery }),
    CATALOG_DOCS.companies,
    async (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=60');
      ctx.body = await searchCompanies(ctx.services.knex, ctx.state.input.query as unknown as CompanySearch);
    },
  );
}
