// The reference's words for the delivery log of events for integrations (DECISIONS: Events for
// integrations; docs/api-notes.md: Events for integrations): an app's events with their attempts, sending
// one again, and a ping.
import { doc, type ErrorRef } from '../../openapi/route-facts.js';
import { APP_EVENT_ANSWERS } from '../../openapi/shapes/app-events.js';

const attempt = {
  attempted_at: '2026-11-28T12:00:05.000Z',
  http_status: 204,
  duration_ms: 84,
  error: null,
  outcome: 'delivered' as const,
};

const event = {
  id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd',
  type: 'library.entry.saved',
  seq: 1042,
  status: 'delivered',
  created_at: '2026-11-28T12:00:00.000Z',
  delivered_at: '2026-11-28T12:00:05.000Z',
  failed_at: null,
  last_error: null,
  attempts: [
    attempt,
    { ...attempt, attempted_at: '2026-11-28T12:00:00.000Z', http_status: 500, duration_ms: 120, outcome: 'retrying' },
  ],
};

const pending = { ...event, status: 'pending', delivered_at: null, attempts: [] };

const LIMIT = '20 an hour per app (refusals spend none), then 429 `rate_limited` with `retry_after`.';
const SESSION = 'Session only, your own app (another account’s app is 404 `app_not_found`).';
const SUBSCRIPTION =
  'The app needs a subscription (`events` on `PATCH /account/apps/{id}`): 409 `no_events_url` without one, 409 `events_disabled` while it is disabled.';
const SUBSCRIPTION_ERRORS: ErrorRef[] = ['conflict:no_events_url', 'conflict:events_disabled'];
const COMMON: ErrorRef[] = ['not_found:app_not_found', 'rate_limited:rate_limited'];

export const APP_EVENT_DOCS = {
  list: doc({
    summary: 'The app’s events',
    description: `The app’s events for integrations, newest first, each with its last 20 attempts (newest first: time, HTTP status or null without an answer, duration, the guard’s \`error\`, outcome) and \`last_error\`. \`status\`: \`pending\`, \`delivered\` or \`failed\`. \`limit\` 1 to 100 (50 by default). \`next\` is the signed cursor of the following page, bound to the app and the \`status\` filter: another app’s or filter’s, or an edited one, is 400 \`bad_format\` with \`field\` \`cursor\`. Delivered and failed events are kept 30 days after they finished; pending ones stay until they do. ${SESSION} ${LIMIT}`,
    errors: [...COMMON, 'invalid_request:bad_format'],
    response: APP_EVENT_ANSWERS.log,
    example: { data: [event], next: null },
  }),
  redeliver: doc({
    summary: 'Send an event again',
    description: `A \`delivered\` or \`failed\` event goes out again with the same \`jti\` and \`webhook-id\` (a receiver that drops repeats drops it): it is \`pending\` until one attempt, which delivers or fails it (no retry schedule). The answer is the event as it now is. A pending event is 409 \`event_not_redeliverable\`; an unknown event, or another app’s, is 404 \`event_not_found\`. ${SUBSCRIPTION} ${SESSION} ${LIMIT}`,
    errors: [...COMMON, 'not_found:event_not_found', 'conflict:event_not_redeliverable', ...SUBSCRIPTION_ERRORS],
    response: APP_EVENT_ANSWERS.event,
    example: { data: pending },
  }),
  ping: doc({
    summary: 'Send a ping event',
    description: `Makes a \`ping\` event (no \`sub\`, \`data\` {}, a fresh \`jti\` and the app’s next \`seq\`) and sends it to the subscription’s URL like any other event, retries included, whether or not the subscription names \`ping\` among its types. The answer is the new event, \`pending\`; read the log to see how it went. ${SUBSCRIPTION} ${SESSION} ${LIMIT}`,
    status: 201,
    errors: [...COMMON, ...SUBSCRIPTION_ERRORS],
    response: APP_EVENT_ANSWERS.event,
    example: {
      data: { ...pending, id: '0192f3a4-6c7d-7e8f-8a9b-0c1d2e3f4a5b', type: 'ping', seq: 1043 },
    },
  }),
};
