// A person's play statistics (spec: GET /profiles/{username}/stats, profile.read).
import { playStats } from '../../../shared/people/stats.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';
import { pathPerson, personParams, relationOf } from './person.js';

export function statsRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/:username/stats',
    scoped('profile.read', 'read', { anonymous: true }),
    validate({ params: personParams }),
    PEOPLE_DOCS.stats,
    async (ctx) => {
      const { knex } = ctx.services;
      const person = await pathPerson(ctx);
      const { owner } = person;
      const view = person.library;
      const relation = relationOf(person);
      ctx.body = {
        data: { username: owner.username, ...(await playStats(knex, owner.id, relation, view === 'full')) },
      };
    },
  );
}
