// The account's keys across its apps.
import { createKey, listAccountKeys, revokeKey } from '../../../shared/keys/keys.js';
import { presentKey } from '../../../shared/keys/presenters.js';
import { onePage } from '../../../shared/platform/paging/paging.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { APP_DOCS } from './apps-docs.js';
import { accountKeyCreateBody } from './schemas.js';
import { idParams } from '../schemas.js';

export function keyRoutes(api: VersionedRoutes): void {
  api.get('/account/keys', sessionOnly({ allowance: 'read' }), APP_DOCS.accountKeys, async (ctx) => {
    const keys = await listAccountKeys(ctx.services.knex, sessionCaller(ctx).account.id);
    // Collections answer `page`; the account's keys come whole, on one page (DECISIONS, Fine print).
    ctx.body = { data: keys.map((key) => presentKey(key)), page: onePage(keys.length) };
  });

  api.post(
    '/account/keys',
    sessionOnly({ allowance: 'write' }),
    validate({ body: accountKeyCreateBody }),
    APP_DOCS.createAccountKey,
    async (ctx) => {
      const { knex, keyPrefix } = ctx.services;
      const body = ctx.state.input.body as { app_id: string; name: string; expires_in_days?: number | null };
      const { key, token } = await createKey(knex, keyPrefix, sessionCaller(ctx).account.id, body.app_id, body);
      ctx.status = 201;
      ctx.body = { data: { ...presentKey(key), token } };
    },
  );

  api.delete(
    '/account/keys/:id',
    sessionOnly({ allowance: 'write' }),
    validate({ params: idParams }),
    APP_DOCS.revokeKey,
    async (ctx) => {
      const key = await revokeKey(
        ctx.services.knex,
        sessionCaller(ctx).account.id,
        ctx.state.input.params.id as string,
      );
      ctx.body = { data: presentKey(key) };
    },
  );
}
