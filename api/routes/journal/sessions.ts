// The owner's play sessions (DECISIONS: Journal): a session or a key holding journal.read reads them (read
// allowance), journal.write writes them (write allowance).
import { idParams } from '../../../shared/content/content-fields.js';
import { gameFilter, listSessions, sessionsAsShown } from '../../../shared/journal/session-reads.js';
import {
  createSession,
  deleteSession,
  updateSession,
  type SessionChanges,
  type SessionInput,
} from '../../../shared/journal/sessions.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { sessionCreateBody, sessionPatchBody, sessionsQuery } from './schemas.js';
import { SESSION_DOCS } from './sessions-docs.js';

export function sessionRoutes(api: VersionedRoutes): void {
  api.get(
    '/journal/sessions',
    scoped('journal.read', 'read'),
    validate({ query: sessionsQuery }),
    SESSION_DOCS.list,
    async (ctx) => {
      const { knex } = ctx.services;
      const query = ctx.state.input.query as { game?: string; before?: string; limit: number };
      const page = await listSessions(knex, ctx.state.caller!.account.id, {
        gameId: await gameFilter(knex, query.game),
        before: query.before,
        limit: query.limit,
      });
      ctx.body = {
        data: await sessionsAsShown(knex, page.rows),
        has_more: page.has_more,
        next_before: page.next_before,
      };
    },
  );

  api.post(
    '/journal/sessions',
    scoped('journal.write', 'write'),
    validate({ body: sessionCreateBody }),
    SESSION_DOCS.create,
    async (ctx) => {
      const { knex } = ctx.services;
      const row = await createSession(
        knex,
        ctx.state.caller!.account.id,
        ctx.state.input.body as unknown as SessionInput,
      );
      ctx.status = 201;
      ctx.body = { data: (await sessionsAsShown(knex, [row]))[0] };
    },
  );

  api.patch(
    '/journal/sessions/:id',
    scoped('journal.write', 'write'),
    validate({ params: idParams, body: sessionPatchBody }),
    SESSION_DOCS.update,
    async (ctx) => {
      const { knex } = ctx.services;
      const row = await updateSession(
        knex,
        ctx.state.caller!.account.id,
        ctx.state.input.params.id as string,
        ctx.state.input.body as SessionChanges,
      );
      ctx.body = { data: (await sessionsAsShown(knex, [row]))[0] };
    },
  );

  api.delete(
    '/journal/sessions/:id',
    scoped('journal.write', 'write'),
    validate({ params: idParams }),
    SESSION_DOCS.delete,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteSession(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
