// Arcade's public routes (spec: Public): the directory and a game's store page, open to anyone; a key is
// still checked and charged the read allowance.
import { listDirectory, storePage, type DirectoryQuery } from '../../../shared/arcade/directory.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { publicRoute } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { ARCADE_PUBLIC_DOCS } from './arcade-public-docs.js';

const directoryQuery: SchemaObject = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 80 },
    cursor: { type: 'string', maxLength: 2048 },
    limit: { type: 'integer', minimum: 1, maximum: 60, default: 30 },
  },
};

const slugParams: SchemaObject = {
  type: 'object',
  required: ['slug'],
  properties: { slug: { type: 'string', maxLength: 100 } },
};

export function arcadePublicRoutes(api: VersionedRoutes): void {
  api.get(
    '/arcade/apps',
    publicRoute('read'),
    validate({ query: directoryQuery }),
    ARCADE_PUBLIC_DOCS.directory,
    async (ctx) => {
      const { knex, auth, media } = ctx.services;
      ctx.set('Cache-Control', 'public, max-age=60');
      ctx.body = await listDirectory(knex, auth.secret, ctx.state.input.query as unknown as DirectoryQuery, (key) =>
        media.url(key),
      );
    },
  );

  api.get(
    '/arcade/apps/:slug',
    publicRoute('read'),
    validate({ params: slugParams }),
    ARCADE_PUBLIC_DOCS.storePage,
    async (ctx) => {
      const { knex, media } = ctx.services;
      ctx.set('Cache-Control', 'public, max-age=60');
      ctx.body = { data: await storePage(knex, ctx.state.input.params.slug as string, (key) => media.url(key)) };
    },
  );
}
