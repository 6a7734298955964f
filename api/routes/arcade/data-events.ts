// The data-event delivery log of a game (issue #21): its events with their attempts, sending one again, and
// a signed ping to the live release's events URL. Developer routes: a session that passed two-factor, the
// caller's own game (developer()/developerGame()).
import {
  LOG_STATUSES,
  listDeliveryLog,
  pingEventsUrl,
  redeliverEvent,
  type LogQuery,
} from '../../../shared/arcade/delivery-log.js';
import { config } from '../../../shared/platform/config.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { idParams } from '../schemas.js';
import { ARCADE_DATA_EVENT_DOCS } from './arcade-data-events-docs.js';
import { developer, developerGame } from './developer-game.js';

const logQuery: SchemaObject = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: [...LOG_STATUSES] },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
};

const eventParams: SchemaObject = {
  type: 'object',
  required: ['id', 'eventId'],
  properties: { id: idParams.properties!.id as SchemaObject, eventId: { type: 'string', maxLength: 100 } },
};

export function arcadeDataEventRoutes(api: VersionedRoutes): void {
  api.get(
    '/account/apps/:id/arcade/data-events',
    developer('read'),
    validate({ params: idParams, query: logQuery }),
    ARCADE_DATA_EVENT_DOCS.list,
    async (ctx) => {
      const game = await developerGame(ctx);
      const { knex, auth } = ctx.services;
      ctx.body = await listDeliveryLog(knex, auth.secret, game.app_id, ctx.state.input.query as unknown as LogQuery);
    },
  );

  api.post(
    '/account/apps/:id/arcade/data-events/ping',
    developer('write'),
    validate({ params: idParams }),
    ARCADE_DATA_EVENT_DOCS.ping,
    async (ctx) => {
      const game = await developerGame(ctx);
      ctx.body = {
        data: await pingEventsUrl(ctx.services.knex, game.app_id, {
          secret: config().secret,
          issuer: config().publicUrl,
        }),
      };
    },
  );

  api.post(
    '/account/apps/:id/arcade/data-events/:eventId/redeliver',
    developer('write'),
    validate({ params: eventParams }),
    ARCADE_DATA_EVENT_DOCS.redeliver,
    async (ctx) => {
      const game = await developerGame(ctx);
      const event = await redeliverEvent(ctx.services.knex, game.app_id, ctx.state.input.params.eventId as string);
      ctx.status = 202;
      ctx.body = { data: { event } };
    },
  );
}
