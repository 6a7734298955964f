// The reference's words for the owner's play sessions (DECISIONS: Journal, Shared rules, Refusals, Cursor
// reads).
import { coverUrl } from '../../../shared/content/game-covers.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { doc } from '../../openapi/route-facts.js';
import { JOURNAL_ANSWERS } from '../../openapi/shapes/journal.js';

const SESSION_ID = '3f6b2d1e-8c4a-4e7b-9a05-6d2c1b7e4f90';
const closed = {
  id: SESSION_ID,
  game_id: 1942,
  game: { slug: 'hollow-knight', name: 'Hollow Knight', cover_url: coverUrl('co93cr') },
  started_at: '2026-11-20T19:05:00.000Z',
  ended_at: '2026-11-20T21:17:30.000Z',
  minutes: 132,
  live: false,
  note: 'Finally beat the Mantis Lords.',
  visibility: 'PUBLIC',
  comments: 2,
  removed: false,
  created_at: '2026-11-20T19:05:02.118734Z',
  updated_at: '2026-11-20T21:17:41.502Z',
};
const live = {
  ...closed,
  id: '9d0e4a7c-2b5f-4c18-8e3a-71f6b0c2d4e5',
  game_id: 7346,
  game: { slug: 'celeste', name: 'Celeste', cover_url: null },
  started_at: '2026-11-21T20:00:00.000Z',
  ended_at: null,
  minutes: null,
  live: true,
  note: '',
  comments: 0,
  created_at: '2026-11-21T20:00:04.527310Z',
  updated_at: '2026-11-21T20:00:04.527Z',
};

const TIMES =
  'Times are ISO 8601 with an offset; a time more than 5 minutes ahead is 400 `fields_invalid` naming it. `ended_at` null (or left out) is a live session; else it may not be before `started_at` nor more than 24 hours after it (400 `fields_invalid` `ended_at`). `minutes` are the whole minutes between the two, rounded down.';
const ONE_LIVE =
  'An account runs one live session at a time: another is 409 `conflict` reason `session_running`, with `id` the running one (close it by PATCHing its `ended_at`).';
const FEED =
  'A session is on the activity feed (kind `session`) from when it is closed: created closed, or closed by PATCH.';
const UNKNOWN = 'Another account’s session, an unknown id or one that is not a UUID is 404 `session_not_found`.';
const WRITE_ERRORS: ErrorRef[] = ['invalid_request:fields_invalid', 'conflict:session_running'];

export const SESSION_DOCS = {
  list: doc({
    summary: 'Your play sessions',
    description:
      'Your sessions, newest first (by when they were logged), live and removed ones included. `game` filters by a catalog id or slug (a slug the catalog does not know matches nothing). `limit` 1 to 100 (default 20); pass `next_before` back as `before` for the next page, null on the last. Sessions logged in the same instant are never split across pages: a page may end early to keep them together, or hold more than `limit` when they alone fill it.',
    response: JOURNAL_ANSWERS.sessions,
    example: { data: [live, closed], has_more: true, next_before: closed.created_at },
  }),
  create: doc({
    summary: 'Log a play session',
    description: `\`game_id\` (a catalog id, else 400 \`fields_invalid\`) and \`started_at\` are required; \`note\` up to 2000 characters (default ""), \`visibility\` PUBLIC (default), FOLLOWERS or PRIVATE. ${TIMES} ${ONE_LIVE} ${FEED}`,
    errors: WRITE_ERRORS,
    status: 201,
    response: JOURNAL_ANSWERS.session,
    example: { data: live },
  }),
  update: doc({
    summary: 'Change or close a play session',
    description: `Only the fields sent change, and every rule is judged again on the session they make (a rule broken by the other end of the pair names the field sent). Setting \`ended_at\` closes a live session and puts it on the feed; setting it to null reopens a closed one, which leaves the feed until it is closed again. ${TIMES} ${ONE_LIVE} A session moderation removed cannot be changed: 403 \`forbidden\` reason \`removed\`. ${UNKNOWN}`,
    errors: [...WRITE_ERRORS, 'not_found:session_not_found', 'forbidden:removed'],
    response: JOURNAL_ANSWERS.session,
    example: { data: closed },
  }),
  delete: doc({
    summary: 'Delete a play session',
    description: `Its feed items and the comments on it go with it. ${UNKNOWN}`,
    errors: ['not_found:session_not_found'],
    response: JOURNAL_ANSWERS.deleted,
    example: { data: { id: SESSION_ID, deleted: true } },
  }),
};
