// A person's play statistics (spec: GET /profiles/{username}/stats, profile.read).
import { findByUsername } from '../../../shared/accounts/usernames.js';
import { notFound } from '../../../shared/errors.js';
import { readerRelation } from '../../../shared/people/screenshots.js';
import { playStats } from '../../../shared/people/stats.js';
import { profileView } from '../../../shared/people/visibility.js';
import type { SchemaObject } from '../../../shared/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';

const params: SchemaObject = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', maxLength: 100 } },
};

export function statsRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/:username/stats',
    scoped('profile.read', 'read', { anonymous: true }),
    validate({ params }),
    async (ctx) => {
      const { knex } = ctx.services;
      const owner = await findByUsername(knex, ctx.state.input.params.username as string);
      if (!owner) throw notFound('No one has this username.');
      const readerId = ctx.state.caller?.account.id ?? null;
      const view = await profileView(knex, { accountId: readerId }, owner.id);
      if (view === 'hidden') throw notFound('No one has this username.');
      const relation = await readerRelation(knex, readerId, owner.id);
      ctx.body = {
        data: { username: owner.username, ...(await playStats(knex, owner.id, relation, view === 'full')) },
      };
    },
  );
}
