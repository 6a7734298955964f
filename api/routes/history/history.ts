// A person's history (DECISIONS: History): `profile.read` reads it (read allowance); clearing removes data,
// so it takes `profile.write` and the write allowance, as changing `record_history` does.
import { clearHistory, listHistory, type HistoryQuery } from '../../../shared/history/history.js';
import { HISTORY_KINDS, HISTORY_PAGE, type HistoryKind } from '../../../shared/history/history-rules.js';
import { cursorQuery } from '../../../shared/content/content-fields.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { HISTORY_DOCS } from './history-docs.js';

const kind: SchemaObject = { type: 'string', enum: [...HISTORY_KINDS] };

const historyQuery: SchemaObject = {
  type: 'object',
  properties: {
    kind,
    ...cursorQuery,
    limit: { type: 'integer', minimum: HISTORY_PAGE.min, maximum: HISTORY_PAGE.max, default: HISTORY_PAGE.default },
  },
};

const clearQuery: SchemaObject = { type: 'object', properties: { kind } };

export function historyRoutes(api: VersionedRoutes): void {
  api.get(
    '/history',
    scoped('profile.read', 'read'),
    validate({ query: historyQuery }),
    HISTORY_DOCS.list,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const query = ctx.state.input.query as unknown as HistoryQuery;
      const page = await listHistory(knex, ctx.state.caller!.account.id, query, (key) => media.url(key));
      ctx.body = { data: page.rows, has_more: page.has_more, next_before: page.next_before };
    },
  );

  api.delete(
    '/history',
    scoped('profile.write', 'write'),
    validate({ query: clearQuery }),
    HISTORY_DOCS.clear,
    async (ctx) => {
      const chosen = ctx.state.input.query.kind as HistoryKind | undefined;
      ctx.body = { data: { removed: await clearHistory(ctx.services.knex, ctx.state.caller!.account.id, chosen) } };
    },
  );
}
