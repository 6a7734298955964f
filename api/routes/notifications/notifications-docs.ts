// The reference's words for notifications (DECISIONS: Notifications; Cursor reads; docs/api-notes.md).
import { doc } from '../../openapi/route-facts.js';
import { NOTIFICATION_ANSWERS } from '../../openapi/shapes/notifications.js';
import { KEEP_ALIVE_MS, STREAM_BUFFER_CAP } from './stream.js';

const like = {
  id: '0b7f3a52-6c1e-4d8a-9f25-3e4a7c9d1b06',
  kind: 'like',
  actor: {
    id: '5d2c8e41-7a93-4b6f-8e10-2f9c4a6d3b57',
    username: 'ana_plays',
    display_name: 'Ana',
    avatar_url: 'https://jogatina.example/media/avatars/5d2c8e41.webp',
  },
  subject: { kind: 'REVIEW', id: '3f6b9c2e-8d41-4a7e-b0c5-9e2d7a1f4b63' },
  data: { count: 3 },
  created_at: '2026-11-24T21:14:08.512345Z',
  read_at: null,
};

const infraction = {
  id: 'c9e4a1d7-2b58-4f63-a0e9-71d5b3c8f246',
  kind: 'infraction',
  actor: null,
  subject: null,
  data: { infraction_id: '8a1d4c7e-3f92-4b05-96e8-d2c7b1a5e340', reason: 'Aviso', expires_at: null },
  created_at: '2026-11-23T09:00:00.000000Z',
  read_at: '2026-11-23T18:30:12.004501Z',
};

const SHOWN =
  'Kept 90 days. Nothing from a person you blocked or who blocked you is shown, whenever the block came. Likes on one thing within an hour collapse into one notification, whose `data.count` grows.';

const stream = [
  'event: ready',
  'data: {"unread":4}',
  '',
  `id: 212`,
  'event: notification',
  `data: ${JSON.stringify(like)}`,
  '',
  ': keep-alive',
  '',
  '',
].join('\n');

export const NOTIFICATION_DOCS = {
  list: doc({
    summary: 'Your notifications',
    description: `Newest first, by cursor: \`before\` is the last item’s \`created_at\` (to the microsecond) and \`next_before\` is null on the last page. \`unread=1\` keeps the unread ones. ${SHOWN}`,
    response: NOTIFICATION_ANSWERS.list,
    example: { data: [like, infraction], has_more: true, next_before: infraction.created_at },
  }),
  unreadCount: doc({
    summary: 'How many notifications are unread',
    description: 'What `GET /notifications?unread=1` walks through.',
    response: NOTIFICATION_ANSWERS.unread,
    example: { data: { unread: 4 } },
  }),
  markRead: doc({
    summary: 'Mark notifications read',
    description:
      'Body `{ ids }` (1 to 100 notification ids) or `{ all: true }`, exactly one of them: neither is 400 `missing` naming `ids`, both is 400 `not_allowed` naming `all`. `marked` counts those that went from unread to read. An id that names none of your unread notifications (already read, removed meanwhile, or not yours) marks nothing and is no error, so one vanished id never fails the rest and nothing is told about anyone else’s. Marking read is not news to the stream.',
    errors: ['invalid_request:missing', 'invalid_request:not_allowed'],
    response: NOTIFICATION_ANSWERS.marked,
    example: { data: { marked: 2 } },
  }),
  stream: doc({
    summary: 'Your notifications as they happen (server-sent events)',
    description: `For the website’s session (an API key is 403). \`ready\` first, with \`unread\`; then \`notification\` events within 2 seconds of each new notification, whichever server wrote it, \`data\` as \`GET /notifications\` shows it and \`id\` its place in your stream. A notification that changes (more likes collapsed into it) comes again with the same \`data.id\` and a higher event id. Send the last event id you received as the \`Last-Event-ID\` header on reconnecting (EventSource does) to get every notification after it first (up to the 90 days kept), none twice; without it the stream starts with what comes next. A \`Last-Event-ID\` that is not such an id is 400 \`bad_format\` naming it. A \`: keep-alive\` comment comes every ${KEEP_ALIVE_MS / 1000} seconds. A client that stops reading is cut off once ${STREAM_BUFFER_CAP / 1024} KiB wait for it; its reconnect resumes where it stopped reading.`,
    errors: ['invalid_request:bad_format'],
    produces: 'text/event-stream',
    headers: { 'Cache-Control': '`no-store`', 'X-Accel-Buffering': '`no`: proxies pass events on at once.' },
    example: stream,
  }),
};
