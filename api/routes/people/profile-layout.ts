// A person's published layout (spec: GET /profiles/{username}/layout): public, a key needs profile.read.
import { visitorLayout } from '../../../shared/layout/layout-versions.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';
import { pathPerson } from './person.js';

const usernameParams: SchemaObject = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', maxLength: 100 } },
};

export function profileLayoutRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/:username/layout',
    scoped('profile.read', 'read', { anonymous: true }),
    validate({ params: usernameParams }),
    PEOPLE_DOCS.layout,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const { owner, library: view } = await pathPerson(ctx, 'pages');
      ctx.body = { data: await visitorLayout(knex, owner.id, view === 'full', (key) => media.url(key)) };
    },
  );
}
