// The catalog (spec: Catalog routes): public; a key needs catalog.read and spends the catalog allowance.
import { gameStats } from '../../../shared/catalog/catalog-stats.js';
import { searchGames } from '../../../shared/catalog/game-search.js';
import { gameBySlug, gameRatings, loadGenreNames } from '../../../shared/catalog/games.js';
import { presentGame, presentGames } from '../../../shared/catalog/presenters.js';
import { gameSearchQuery, usesOwnLibrary, type GameSearch } from '../../../shared/catalog/search-parameters.js';
import { insufficientScope, unauthorized } from '../../../shared/platform/errors.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { recordViewAfterAnswer } from '../../middleware/record-view.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { CATALOG_DOCS } from './catalog-docs.js';
import { INT4_MAX } from '../../../shared/platform/validation/integers.js';

const catalog = () => scoped('catalog.read', 'catalog', { anonymous: true });
/** Public answers may be cached briefly by browsers and shared caches. */
const PUBLIC_CACHE = 'public, max-age=60';

const idsQuery: SchemaObject = {
  type: 'object',
  required: ['ids'],
  properties: {
    ids: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      uniqueItems: true,
      items: { type: 'integer', minimum: 1, maximum: INT4_MAX },
    },
  },
};
const slugParams: SchemaObject = {
  type: 'object',
  required: ['slug'],
  properties: { slug: { type: 'string', maxLength: 200 } },
};

export function gameRoutes(api: VersionedRoutes): void {
  api.get('/games', catalog(), validate({ query: gameSearchQuery }), CATALOG_DOCS.search, async (ctx) => {
    const { knex } = ctx.services;
    const search = ctx.state.input.query as unknown as GameSearch;
    const caller = ctx.state.caller;
    const own = usesOwnLibrary(search);
    if (own) {
      // Spec: no caller is 401; a key must also hold library.read.
      if (!caller) throw unauthorized('The own-library filters need a session or an API key.');
      if (caller.key && !caller.key.scopes.includes('library.read')) throw insufficientScope('library.read');
    }
    const found = await searchGames(knex, search, own ? caller!.account.id : null);
    // An answer shaped by the caller's own library is theirs alone.
    ctx.set('Cache-Control', own ? 'private, no-store' : PUBLIC_CACHE);
    ctx.body = { data: presentGames(found.rows, await loadGenreNames(knex, found.rows)), page: found.page };
  });

  api.get('/games/ratings', catalog(), validate({ query: idsQuery }), CATALOG_DOCS.ratings, async (ctx) => {
    ctx.set('Cache-Control', PUBLIC_CACHE);
    ctx.body = { data: await gameRatings(ctx.services.knex, ctx.state.input.query.ids as number[]) };
  });

  api.get('/games/stats', catalog(), validate({ query: idsQuery }), CATALOG_DOCS.stats, async (ctx) => {
    ctx.set('Cache-Control', PUBLIC_CACHE);
    ctx.body = { data: await gameStats(ctx.services.knex, ctx.state.input.query.ids as number[]) };
  });

  api.get('/games/:slug', catalog(), validate({ params: slugParams }), CATALOG_DOCS.game, async (ctx) => {
    const { knex } = ctx.services;
    const row = await gameBySlug(knex, ctx.state.input.params.slug as string);
    ctx.set('Cache-Control', PUBLIC_CACHE);
    ctx.body = { data: presentGame(row, await loadGenreNames(knex, [row])) };
    recordViewAfterAnswer(ctx, { game: row.id });
  });
}
