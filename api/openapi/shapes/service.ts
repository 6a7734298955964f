// The answers of the routes outside any area: health, who is calling, reports, copies, and this reference.
import { SCOPES } from '../../../shared/keys/scopes.js';
import {
  answer,
  boolean,
  component,
  constant,
  dateTime,
  integer,
  list,
  nullable,
  object,
  oneOf,
  string,
  uuid,
} from '../response-schemas.js';

export const Copy = component(
  'Copy',
  object({
    id: uuid(),
    game_id: integer(),
    platform_id: nullable(integer()),
    format: oneOf(['digital', 'physical']),
    note: string(),
    created_at: dateTime(),
  }),
);

export const SERVICE_ANSWERS = {
  ready: answer(
    object({
      status: constant('ready'),
      database: constant('ok'),
      queue: constant('ok'),
      migrations: constant('ok'),
    }),
  ),
  health: answer(
    object({
      status: oneOf(['ok', 'degraded'], 'degraded when the job queue does not answer.'),
      database: constant('ok'),
      queue: oneOf(['ok', 'down']),
    }),
  ),
  me: answer(
    object({
      account: object({ id: uuid(), username: nullable(string()), display_name: nullable(string()) }),
      key: nullable(
        object(
          { id: uuid(), app_id: uuid(), scopes: list(oneOf(SCOPES), 'The app’s current scopes.') },
          { description: 'The calling key; null for a session.' },
        ),
      ),
    }),
  ),
  report: answer(object({ received: constant(true) })),
  copies: object({
    data: list(Copy),
    page: object({ size: integer(), has_more: boolean() }),
    next_cursor: nullable(string('Pass it as `cursor` for the next page; null on the last.')),
  }),
  /** The reference itself: an OpenAPI 3.1 document, not under `data`. */
  reference: {
    type: 'object',
    description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0).',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: constant('3.1.0'),
      info: { ...object({ title: string(), version: string('The service’s version.') }), additionalProperties: true },
      paths: { type: 'object', additionalProperties: true },
    },
    additionalProperties: true,
  },
};
