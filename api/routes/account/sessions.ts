// Where the account is signed in, and ending a session (the calling one included).
import { Session } from '../../../shared/auth/models.js';
import { presentSessionListItem } from '../../../shared/auth/presenters.js';
import { SESSION_IDLE_DAYS } from '../../../shared/auth/session-rules.js';
import { endSession } from '../../../shared/auth/sessions.js';
import { notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/validation/uuid.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { clearSessionCookie } from '../../session-cookie.js';
import { idParams } from './schemas.js';

export function sessionRoutes(api: VersionedRoutes): void {
  api.get('/account/sessions', sessionOnly({ allowance: 'read' }), async (ctx) => {
    const { account, session } = sessionCaller(ctx);
    // Sessions idle past 30 days are over even before anything deletes them.
    const sessions = await Session.query(ctx.services.knex)
      .where({ account_id: account.id })
      .where('last_seen_at', '>', new Date(Date.now() - SESSION_IDLE_DAYS * 24 * 3600 * 1000))
      .orderBy('last_seen_at', 'desc');
    ctx.body = { data: sessions.map((row) => presentSessionListItem(row, session.id)) };
  });

  api.delete(
    '/account/sessions/:id',
    sessionOnly({ allowance: 'write' }),
    validate({ params: idParams }),
    async (ctx) => {
      const { account, session } = sessionCaller(ctx);
      const id = ctx.state.input.params.id as string;
      const target = isUuid(id)
        ? await Session.query(ctx.services.knex).findOne({ id, account_id: account.id })
        : undefined;
      if (!target) throw notFound('No session of yours has this id.', 'session_not_found');
      await endSession(ctx.services.knex, target.id);
      if (target.id === session.id) clearSessionCookie(ctx);
      ctx.body = { data: { id: target.id, ended: true, current: target.id === session.id } };
    },
  );
}
