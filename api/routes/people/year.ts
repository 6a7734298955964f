// A person's year (spec: GET /profiles/{username}/year/{year}, profile.read; 2000 through this year).
import { invalidRequest } from '../../../shared/platform/errors.js';
import { FIRST_YEAR, yearOf } from '../../../shared/people/year.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';
import { pathPerson, relationOf } from './person.js';

const params: SchemaObject = {
  type: 'object',
  required: ['username', 'year'],
  properties: {
    username: { type: 'string', maxLength: 100 },
    // 9999 bounds the number for the reference and the parser; the calendar's bound is checked below.
    year: { type: 'integer', minimum: FIRST_YEAR, maximum: 9999 },
  },
};

export function yearRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/:username/year/:year',
    scoped('profile.read', 'read', { anonymous: true }),
    validate({ params }),
    PEOPLE_DOCS.year,
    async (ctx) => {
      const { knex } = ctx.services;
      const year = ctx.state.input.params.year as number;
      // The upper bound moves with the calendar, so it is checked here rather than in the schema.
      const current = new Date().getUTCFullYear();
      if (year > current) {
        throw invalidRequest(`year must be from ${FIRST_YEAR} to ${current}.`, {
          field: 'year',
          reason: 'out_of_range',
        });
      }
      const person = await pathPerson(ctx);
      const { owner } = person;
      const view = person.library;
      const relation = relationOf(person);
      ctx.body = {
        data: { username: owner.username, ...(await yearOf(knex, owner.id, year, relation, view === 'full')) },
      };
    },
  );
}
