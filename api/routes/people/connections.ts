// A person's followers and following (spec: GET /profiles/{username}/connections, social.read): shown to
// readers who see the profile in full; a block either way is 404.
import { profileConnections, type ProfileConnectionsQuery } from '../../../shared/social/connections.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';
import { pathPerson, personParams } from './person.js';

const query: SchemaObject = {
  type: 'object',
  properties: {
    tab: { type: 'string', enum: ['followers', 'following'], default: 'followers' },
    before: { type: 'string', format: 'date-time' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
    q: { type: 'string', maxLength: 80 },
  },
};

export function connectionRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/:username/connections',
    scoped('social.read', 'read', { anonymous: true }),
    validate({ params: personParams, query }),
    PEOPLE_DOCS.connections,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const { owner, readerId, library: view } = await pathPerson(ctx, 'pages');
      const options = ctx.state.input.query as unknown as ProfileConnectionsQuery;
      if (view === 'public') {
        // A private profile's connections are for its followers; others see an empty page.
        ctx.body = { data: [], page: { size: options.limit, has_more: false }, next_before: null };
        return;
      }
      ctx.body = await profileConnections(knex, owner.id, readerId, options, (key) => media.url(key));
    },
  );
}
