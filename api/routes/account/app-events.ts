// The delivery log of an app's events for integrations (DECISIONS: Events for integrations): its events
// with their attempts, sending one again, and a ping. Session only, like every /account route; the
// caller's own app (findOwnApp: another account's is 404).
import { findOwnApp } from '../../../shared/keys/apps.js';
import {
  EVENT_STATUSES,
  listAppEvents,
  pingApp,
  redeliverAppEvent,
  type EventLogQuery,
} from '../../../shared/events/event-log.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { idParams } from '../schemas.js';
import { APP_EVENT_DOCS } from './app-events-docs.js';

const logQuery: SchemaObject = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: [...EVENT_STATUSES] },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
};

const eventParams: SchemaObject = {
  type: 'object',
  required: ['id', 'event_id'],
  properties: { id: idParams.properties!.id as SchemaObject, event_id: { type: 'string', maxLength: 100 } },
};

export function appEventRoutes(api: VersionedRoutes): void {
  const read = sessionOnly({ allowance: 'read' });
  const write = sessionOnly({ allowance: 'write' });

  api.get(
    '/account/apps/:id/events',
    read,
    validate({ params: idParams, query: logQuery }),
    APP_EVENT_DOCS.list,
    async (ctx) => {
      const { knex, auth } = ctx.services;
      const app = await findOwnApp(knex, sessionCaller(ctx).account.id, ctx.state.input.params.id as string);
      ctx.body = await listAppEvents(knex, auth.secret, app.id, ctx.state.input.query as unknown as EventLogQuery);
    },
  );

  api.post('/account/apps/:id/events/ping', write, validate({ params: idParams }), APP_EVENT_DOCS.ping, async (ctx) => {
    const { knex } = ctx.services;
    const app = await findOwnApp(knex, sessionCaller(ctx).account.id, ctx.state.input.params.id as string);
    ctx.status = 201;
    ctx.body = { data: await pingApp(knex, app) };
  });

  api.post(
    '/account/apps/:id/events/:event_id/redeliver',
    write,
    validate({ params: eventParams }),
    APP_EVENT_DOCS.redeliver,
    async (ctx) => {
      const { knex } = ctx.services;
      const app = await findOwnApp(knex, sessionCaller(ctx).account.id, ctx.state.input.params.id as string);
      ctx.body = { data: await redeliverAppEvent(knex, app.id, ctx.state.input.params.event_id as string) };
    },
  );
}
