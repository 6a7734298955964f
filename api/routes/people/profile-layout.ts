// A person's published layout (spec: GET /profiles/{username}/layout): public, a key needs profile.read.
import { findByUsername } from '../../../shared/accounts/usernames.js';
import { notFound } from '../../../shared/errors.js';
import { visitorLayout } from '../../../shared/layout/layout-versions.js';
import { personView } from '../../../shared/people/visibility.js';
import type { SchemaObject } from '../../../shared/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';

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
    async (ctx) => {
      const { knex, media } = ctx.services;
      const owner = await findByUsername(knex, ctx.state.input.params.username as string);
      if (!owner) throw notFound('No one has this username.');
      const reader = { accountId: ctx.state.caller?.account.id ?? null };
      const view = await personView(knex, reader, owner.id);
      if (view === 'hidden') throw notFound('No one has this username.');
      ctx.body = { data: await visitorLayout(knex, owner.id, view === 'full', (key) => media.url(key)) };
    },
  );
}
