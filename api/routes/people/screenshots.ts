// A person's screenshots (spec: GET /profiles/{username}/screenshots, screenshots.read).
import { readGallery, type GalleryQuery } from '../../../shared/people/screenshots.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_COLLECTION_DOCS } from './people-collection-docs.js';
import { pathPerson, personParams, relationOf } from './person.js';

const query: SchemaObject = {
  type: 'object',
  properties: {
    page: pageParameter(),
    q: { type: 'string', maxLength: 80 },
    spoilers: { type: 'string', enum: ['all', 'safe', 'spoilers'], default: 'all' },
    sort: { type: 'string', enum: ['new', 'old'], default: 'new' },
    game: { type: 'string', maxLength: 200, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
    games: { type: 'integer', enum: [1] },
  },
};

export function screenshotRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/:username/screenshots',
    scoped('screenshots.read', 'read', { anonymous: true }),
    validate({ params: personParams, query }),
    PEOPLE_COLLECTION_DOCS.screenshots,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const person = await pathPerson(ctx);
      const { owner } = person;
      const relation = relationOf(person);
      const gallery = await readGallery(
        knex,
        owner.id,
        relation,
        ctx.state.input.query as unknown as GalleryQuery,
        (key) => media.url(key),
      );
      ctx.body = gallery;
    },
  );
}
