// GET /discovery/people (spec: social.read): friends playing and people with a similar taste.
import { discoverPeople } from '../../../shared/people/discovery.js';
import { scoped } from '../../middleware/access.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';

export function discoveryRoutes(api: VersionedRoutes): void {
  api.get(
    '/discovery/people',
    scoped('social.read', 'read', { anonymous: true }),
    PEOPLE_DOCS.discovery,
    async (ctx) => {
      const { knex, media } = ctx.services;
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = { data: await discoverPeople(knex, ctx.state.caller?.account.id ?? null, (key) => media.url(key)) };
    },
  );
}
