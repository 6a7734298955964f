// The reference's words for the owner's library (DECISIONS: Library; Paths; Refusals).
import { coverUrl } from '../../../shared/content/game-covers.js';
import { doc } from '../../openapi/route-facts.js';
import { LIBRARY_ANSWERS } from '../../openapi/shapes/library.js';

const entry = {
  game_id: 1942,
  game: { slug: 'the-witcher-3-wild-hunt', name: 'The Witcher 3: Wild Hunt', cover_url: coverUrl('co1wyy') },
  status: 'COMPLETED',
  playing: false,
  backlog: false,
  wishlist: false,
  liked: true,
  ignored: false,
  rating: 95,
  platform_id: 6,
  finished_at: '2026-03-14T22:10:00.000Z',
  created_at: '2024-02-03T15:20:00.000Z',
  updated_at: '2026-11-19T20:11:45.902Z',
};

const GAME =
  '`{game}` is a catalog id (digits) or slug: an unknown game is 404 `game_not_found`. `copies` and `import` are the fixed routes beside this one (405 with their methods in `Allow`): a game with such a slug is reached by its id. An entry whose game the catalog lost is still reached by its id, with `game` null.';
const NO_ENTRY = 'not_found:entry_not_found' as const;
const PATH_ERRORS = ['not_found:game_not_found', 'method_not_allowed'] as const;
const FIELDS =
  '`status` is null or COMPLETED, PLAYING, ON_HOLD, DROPPED, BACKLOG, WISHLIST; `playing`, `backlog`, `wishlist`, `liked`, `ignored` are booleans; `rating` an integer from 0 to 100 or null; `platform_id` one of the game’s platforms or null; `finished_at` a time or null.';
const DATA_REFUSALS =
  'A platform that is not the game’s, or a `finished_at` more than 5 minutes ahead, is 400 `fields_invalid` naming the field.';
const FEED =
  'Creating the entry, or changing its status or rating, puts an `entry` item in the activity feed (a second change within 10 minutes moves that item instead of adding one); an ignored entry makes none, and its items are shown to nobody.';

export const ENTRY_DOCS = {
  library: doc({
    summary: 'Your library',
    description:
      'Every entry of yours, `ignored` ones included (they show in no other read). Filters combine: `status`, the booleans `playing`, `backlog`, `liked`, `ignored`, and `wishlist` (the flag or status WISHLIST). `sort=updated` (default) puts the latest change first; `rating` the highest first, unrated last. `limit` 1 to 1000 (default 100). `games=1` adds `games` by game id, as the profile’s library gives it.',
    response: LIBRARY_ANSWERS.library,
    example: {
      data: [entry],
      page: { number: 1, size: 100, total_items: 1, total_pages: 1, has_more: false },
      games: { 1942: { name: 'The Witcher 3: Wild Hunt', cover: coverUrl('co1wyy'), slug: 'the-witcher-3-wild-hunt' } },
    },
  }),
  get: doc({
    summary: 'Your entry of a game',
    description: `${GAME} No entry of the game in your library is 404 \`entry_not_found\`.`,
    errors: [...PATH_ERRORS, NO_ENTRY],
    response: LIBRARY_ANSWERS.entry,
    example: { data: entry },
  }),
  put: doc({
    summary: 'Put a game in your library',
    description: `The whole entry: fields left out take their defaults (null, or false for the booleans); nothing is required. Answers 201 when the entry is new and 200 when it replaced one, which keeps its \`created_at\`. ${FIELDS} ${DATA_REFUSALS} ${GAME} A library holds at most 20,000 entries: a new one past that is 409 \`library_full\` with \`limit\` and \`count\`. ${FEED}`,
    errors: [...PATH_ERRORS, 'invalid_request:fields_invalid', 'conflict:library_full'],
    status: 201,
    alsoAnswers: { 200: 'The entry was there and is replaced (its `created_at` kept).' },
    response: LIBRARY_ANSWERS.entry,
    example: { data: entry },
  }),
  patch: doc({
    summary: 'Change your entry of a game',
    description: `Only the fields sent change; an empty body changes nothing. ${FIELDS} ${DATA_REFUSALS} ${GAME} No entry is 404 \`entry_not_found\`. ${FEED}`,
    errors: [...PATH_ERRORS, NO_ENTRY, 'invalid_request:fields_invalid'],
    response: LIBRARY_ANSWERS.entry,
    example: { data: { ...entry, rating: 100 } },
  }),
  delete: doc({
    summary: 'Take a game out of your library',
    description: `The entry and its feed items go; your copies of the game stay. ${GAME} No entry is 404 \`entry_not_found\`.`,
    errors: [...PATH_ERRORS, NO_ENTRY],
    response: LIBRARY_ANSWERS.entryDeleted,
    example: { data: { game_id: 1942, deleted: true } },
  }),
  import: doc({
    summary: 'Import entries into your library',
    description:
      '`entries`: 1 to 500 objects, each `game_id` and the fields of `PUT /library/{game}`, written as that PUT writes them (an entry already there is replaced and keeps its `created_at`). All in one transaction: every entry is written or none. A refusal names the first bad entry’s field, `entries.N.field` (N from 0): the schema’s reasons, and 400 `fields_invalid` for a `game_id` the catalog does not have or that an earlier entry already names, a platform that is not the game’s, a `finished_at` in the future. Past 20,000 entries the import is 409 `library_full` (`limit`, and `count` before it). An import adds nothing to the activity feed.',
    errors: ['invalid_request:fields_invalid', 'conflict:library_full'],
    response: LIBRARY_ANSWERS.imported,
    example: { data: { created: 212, updated: 14 } },
  }),
};
