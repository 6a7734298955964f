// The reference's words for the data-event delivery log (issue #21; docs/api-notes.md: Arcade, data events):
// the list of a game's events with their attempts, sending one again, and a ping to the events URL.
import { doc } from '../../openapi/route-facts.js';
import { ARCADE_ANSWERS } from '../../openapi/shapes/arcade-answers.js';
import { GAME } from './arcade-examples.js';

const attempt = {
  attempted_at: '2026-11-25T12:00:05.000Z',
  http_status: 204,
  duration_ms: 84,
  error: null,
  outcome: 'delivered' as const,
};

const event = {
  id: '0b7c6a52-3c1e-4f3f-9d55-1f0e8f1d2a90',
  type: 'nickname_changed',
  player_id: '5d7f1c1e-8a0b-4c55-9a3e-2f6b1b8c9d01',
  status: 'delivered',
  created_at: '2026-11-25T12:00:00.000Z',
  delivered_at: '2026-11-25T12:00:05.000Z',
  failed_at: null,
  attempts: [
    attempt,
    { ...attempt, attempted_at: '2026-11-25T12:00:00.000Z', http_status: 500, duration_ms: 120, outcome: 'retrying' },
  ],
};

const NO_URL = 'conflict:no_events_url' as const;

export const ARCADE_DATA_EVENT_DOCS = {
  list: doc({
    summary: 'The data-event delivery log',
    description:
      'The game’s data events, newest first, each with its last 20 attempts (newest first: time, HTTP status or the guard’s `error`, duration, outcome). `status`: `pending`, `held` (pending while no live release names an events URL), `delivered` or `failed`; any other value is 400. `limit` 1 to 100 (50 by default); `next` is the signed cursor of the following page, bound to the game and the `status` filter (with another filter it starts over). Events and attempts are kept 30 days after the event was delivered or failed; pending and held ones stay until they are. A session that passed two-factor only (a key is 403).',
    errors: GAME,
    response: ARCADE_ANSWERS.dataEvents,
    example: { data: [event], next: null },
  }),
  redeliver: doc({
    summary: 'Send a data event again',
    description:
      'A `delivered` or `failed` event goes out again with the same `jti` and `webhook-id` (a receiver that drops repeats drops it): it is `pending` until one attempt by the delivery job, which delivers or fails it (no retry schedule). A pending or held event is 409 `event_not_redeliverable`; another game’s or an unknown event 404 `event_not_found`; no live release with an events URL 409 `no_events_url`. 20 an hour per game (refusals spend none), then 429 `rate_limited` with `retry_after`.',
    status: 202,
    errors: [
      ...GAME,
      'not_found:event_not_found',
      'conflict:event_not_redeliverable',
      NO_URL,
      'rate_limited:rate_limited',
    ],
    response: ARCADE_ANSWERS.dataEvent,
    example: { data: { event: { ...event, status: 'pending', delivered_at: null } } },
  }),
  ping: doc({
    summary: 'Send a signed ping to the events URL',
    description:
      'Signs a data event of type `ping` (same token as data events: header typ `data-event+jwt`, claims `iss`, `aud`, a fresh `jti`, `iat`, `type` ping, `data` {}, no `sub`) and POSTs it once, now, to the live release’s events URL through the outbound guard (10 s). The answer is the attempt: `delivered` on 2xx, else `failed` with the status or the guard’s `error`. Not stored as an event. 409 `no_events_url` when no live release names one. 20 an hour per game, then 429 `rate_limited` with `retry_after`.',
    errors: [...GAME, NO_URL, 'rate_limited:rate_limited'],
    response: ARCADE_ANSWERS.dataEventPing,
    example: {
      data: {
        id: '9a1d2c3b-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
        url: 'https://rocks.example.com/events',
        outcome: 'delivered',
        http_status: 204,
        duration_ms: 91,
        error: null,
      },
    },
  }),
};
