// The delivery log of events for integrations (shared/events/event-log.ts): an app's events with their
// attempts, as GET /account/apps/{id}/events, redeliver and ping answer them.
import { EVENT_TYPES } from '../../../shared/events/event-types.js';
import {
  answer,
  component,
  dateTime,
  integer,
  list,
  nullable,
  object,
  oneOf,
  string,
  uuid,
} from '../response-schemas.js';
import { deliveryAttempt } from './arcade-players.js';

export const AppEventAttempt = component('AppEventAttempt', deliveryAttempt());

export const AppEventLogEntry = component(
  'AppEventLogEntry',
  object(
    {
      id: uuid('Also the token’s `jti` and the `webhook-id` header, the same on every attempt and redelivery.'),
      type: oneOf(EVENT_TYPES),
      seq: integer('The token’s `seq`: increases with each event of the app, with gaps.'),
      status: oneOf(['pending', 'delivered', 'failed']),
      created_at: dateTime(),
      delivered_at: nullable(dateTime()),
      failed_at: nullable(dateTime()),
      last_error: nullable(
        string('Why the last attempt failed (`status 500`, `timeout`, `scope_removed`, ...); null after a success.'),
      ),
      attempts: list(AppEventAttempt, 'The last 20 attempts, newest first.'),
    },
    { description: 'An event for integrations as the app’s delivery log shows it.' },
  ),
);

export const APP_EVENT_ANSWERS = {
  log: object({
    data: list(AppEventLogEntry, 'Newest first.'),
    next: nullable(string('The cursor of the following page: pass it as `cursor`. Null on the last.')),
  }),
  event: answer(AppEventLogEntry),
};
