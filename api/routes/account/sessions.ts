// Where the account is signed in, and ending a session (the calling one included).
import { presentSessionListItem } from '../../../shared/auth/presenters.js';
import { endOwnSession, listAccountSessions } from '../../../shared/auth/sessions.js';
import { onePage } from '../../../shared/platform/paging/paging.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import { clearSessionCookie } from '../../session-cookie.js';
import type { VersionedRoutes } from '../versioned.js';
import { ACCOUNT_DOCS } from './account-docs.js';
import { idParams } from '../schemas.js';

export function sessionRoutes(api: VersionedRoutes): void {
  api.get('/account/sessions', sessionOnly({ allowance: 'read' }), ACCOUNT_DOCS.sessions, async (ctx) => {
    const { account, session } = sessionCaller(ctx);
    const sessions = await listAccountSessions(ctx.services.knex, account.id);
    // Collections answer `page`; the live sessions come whole, on one page (DECISIONS, Fine print).
    ctx.body = { data: sessions.map((row) => presentSessionListItem(row, session.id)), page: onePage(sessions.length) };
  });

  api.delete(
    '/account/sessions/:id',
    sessionOnly({ allowance: 'write' }),
    validate({ params: idParams }),
    ACCOUNT_DOCS.endSession,
    async (ctx) => {
      const { account, session } = sessionCaller(ctx);
      const id = ctx.state.input.params.id as string;
      await endOwnSession(ctx.services.knex, account.id, id);
      const current = id === session.id;
      if (current) clearSessionCookie(ctx);
      ctx.body = { data: { id, ended: true, current } };
    },
  );
}
