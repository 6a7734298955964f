// The identity key set (spec: GET /arcade/jwks): the plain JWK Set, not under `data`, cached by clients
// for 5 minutes (stale for one more while revalidating); 503 `identity_unavailable` rather than an empty
// set when no key exists, so a game server never caches "no keys". The same set is served at GET /jwks
// for the receivers of events for integrations (DECISIONS: Events for integrations), who are no games.
import { publicKeySet } from '../../../shared/identity/signing-keys.js';
import { ApiError } from '../../../shared/platform/errors.js';
import { publicRoute } from '../../middleware/access.js';
import type { VersionedRoutes } from '../versioned.js';
import { ARCADE_PUBLIC_DOCS } from './arcade-public-docs.js';

export function arcadeJwksRoutes(api: VersionedRoutes): void {
  for (const [path, docs] of [
    ['/arcade/jwks', ARCADE_PUBLIC_DOCS.jwks],
    ['/jwks', ARCADE_PUBLIC_DOCS.serviceJwks],
  ] as const) {
    api.get(path, publicRoute(null), docs, async (ctx) => {
      const set = await publicKeySet(ctx.services.knex);
      if (set.keys.length === 0) {
        throw new ApiError('unavailable', 'No identity key is configured yet.', { reason: 'identity_unavailable' });
      }
      ctx.set('Cache-Control', 'public, max-age=300, stale-while-revalidate=60');
      ctx.type = 'application/jwk-set+json';
      ctx.body = set;
    });
  }
}
