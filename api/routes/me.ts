// `GET /api/v1/me`: who the caller is. Any live key (no scope needed) or session; the read allowance.
import { scoped } from '../middleware/access.js';
import type { VersionedRoutes } from './versioned.js';
import { ME_DOC } from './me-docs.js';

export function meRoutes(api: VersionedRoutes): void {
  api.get('/me', scoped(null, 'read'), ME_DOC, async (ctx) => {
    const { account, key } = ctx.state.caller!;
    ctx.body = {
      data: {
        account: { id: account.id, username: account.username, display_name: account.display_name },
        key: key ? { id: key.id, app_id: key.app_id, scopes: key.scopes } : null,
      },
    };
  });
}
