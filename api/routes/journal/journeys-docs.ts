// The reference's words for the owner's journeys (DECISIONS: Journal, Shared rules, Refusals).
import { coverUrl } from '../../../shared/content/game-covers.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { doc } from '../../openapi/route-facts.js';
import { JOURNAL_ANSWERS } from '../../openapi/shapes/journal.js';

const JOURNEY_ID = '6a1f3c9e-4d2b-4b87-a0e5-2c8d7f1b3e64';
const journey = {
  id: JOURNEY_ID,
  game_id: 1942,
  game: {
    id: 1942,
    slug: 'hollow-knight',
    name: 'Hollow Knight',
    release_year: 2017,
    type: 0,
    rating: 90.4,
    genres: ['Platform', 'Adventure'],
    demo_available: false,
    cover_url: coverUrl('co93cr'),
  },
  title: 'Steel Soul run',
  started_at: '2026-11-01T18:00:00.000Z',
  finished_at: null,
  visibility: 'PUBLIC',
  sessions: 6,
  minutes: 731,
  likes: 4,
  comments: 1,
  awards: { gg: 2 },
  removed: false,
  created_at: '2026-11-01T18:02:13.440Z',
  updated_at: '2026-11-01T18:02:13.440Z',
};
const created = { ...journey, sessions: 0, minutes: 0, likes: 0, comments: 0, awards: {} };

const HOLDS =
  'A journey (a run) holds the sessions of its game you logged whose `started_at` falls between its `started_at` and its `finished_at` (open ended while that is null): `sessions` counts them, `minutes` sums their closed minutes. `game` is the catalog row shaped like `/games`, null when the catalog no longer has the game.';
const TIMES =
  'Times are ISO 8601 with an offset; a time more than 5 minutes ahead is 400 `fields_invalid` naming it, and so is a `finished_at` before `started_at`.';
const UNKNOWN = 'Another account’s journey, an unknown id or one that is not a UUID is 404 `journey_not_found`.';
const WRITE_ERRORS: ErrorRef[] = ['invalid_request:fields_invalid'];

export const JOURNEY_DOCS = {
  list: doc({
    summary: 'Your journeys',
    description: `Your journeys, newest first, removed ones included, 24 a page by default (\`limit\` 1 to 48, \`page\` 1 to 200). ${HOLDS}`,
    response: JOURNAL_ANSWERS.journeys,
    example: { data: [journey], page: { number: 1, size: 24, total_items: 1, total_pages: 1, has_more: false } },
  }),
  create: doc({
    summary: 'Start a journey',
    description: `\`game_id\` (a catalog id, else 400 \`fields_invalid\`), \`title\` (1 to 100 characters) and \`started_at\` are required; \`finished_at\` null (default) or the run's end; \`visibility\` PUBLIC (default), FOLLOWERS or PRIVATE. ${TIMES} It is on the activity feed (kind \`journey\`) from its creation. An account holds at most 1,000 journeys: then 409 \`conflict\` reason \`journeys_full\` with \`limit\` and \`count\`. ${HOLDS}`,
    errors: [...WRITE_ERRORS, 'conflict:journeys_full'],
    status: 201,
    response: JOURNAL_ANSWERS.journey,
    example: { data: created },
  }),
  update: doc({
    summary: 'Change a journey',
    description: `Only the fields sent change; the times are judged again on the journey they make (a rule broken by the other end of the pair names the field sent). ${TIMES} A journey moderation removed cannot be changed: 403 \`forbidden\` reason \`removed\`. ${UNKNOWN}`,
    errors: [...WRITE_ERRORS, 'not_found:journey_not_found', 'forbidden:removed'],
    response: JOURNAL_ANSWERS.journey,
    example: { data: { ...journey, finished_at: '2026-11-22T23:40:00.000Z', updated_at: '2026-11-22T23:41:05.017Z' } },
  }),
  delete: doc({
    summary: 'Delete a journey',
    description: `Its feed items and the comments on it go with it; the sessions it held stay. ${UNKNOWN}`,
    errors: ['not_found:journey_not_found'],
    response: JOURNAL_ANSWERS.deleted,
    example: { data: { id: JOURNEY_ID, deleted: true } },
  }),
};
