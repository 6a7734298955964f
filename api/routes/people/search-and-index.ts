// Finding people and the public index (spec: People, GET /search/people and GET /index). Both answer
// anonymous readers; a key needs profile.read and spends the read allowance.
import { isStaff } from '../../../shared/accounts/account.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import {
  PEOPLE_PAGE,
  PEOPLE_QUERY_MAX,
  PEOPLE_SORTS,
  searchPeople,
  type PeopleSearch,
} from '../../../shared/people/people-search.js';
import { publicIndex } from '../../../shared/people/public-index.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';

const searchQuery: SchemaObject = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: PEOPLE_QUERY_MAX },
    // 1 keeps verified accounts only; 0 is the same as leaving it out.
    verified: { type: 'integer', minimum: 0, maximum: 1 },
    sort: { type: 'string', enum: [...PEOPLE_SORTS], default: 'relevance' },
    page: pageParameter(PEOPLE_PAGE.maxPage),
  },
};

export function peopleSearchRoutes(api: VersionedRoutes): void {
  api.get(
    '/search/people',
    scoped('profile.read', 'read', { anonymous: true }),
    validate({ query: searchQuery }),
    PEOPLE_DOCS.search,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const account = ctx.state.caller?.account;
      const reader = { accountId: account?.id ?? null, staff: isStaff(account) };
      const search = ctx.state.input.query as unknown as PeopleSearch;
      ctx.body = await searchPeople(knex, search, reader, (key) => media.url(key));
    },
  );

  api.get('/index', scoped('profile.read', 'read', { anonymous: true }), PEOPLE_DOCS.index, async (ctx) => {
    // The same for every caller (only what anonymous readers see), so shared caches may keep it a while.
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = { data: await publicIndex(ctx.services.knex) };
  });
}
