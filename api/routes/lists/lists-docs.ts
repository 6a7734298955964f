// The reference's words for lists and their folders (DECISIONS: Lists; Shared rules; Refusals).
import { coverUrl } from '../../../shared/content/game-covers.js';
import { doc, type ErrorRef } from '../../openapi/route-facts.js';
import { Deleted } from '../../openapi/shapes/pages-and-images.js';
import { LIST_ANSWERS } from '../../openapi/shapes/lists.js';

const LIST_ID = 'q3Jx9bT0kLmA';
const FOLDER_ID = 'Zp81wVd2c_Qe';

const game = (id: number, slug: string, name: string, year: number, genres: string[]) => ({
  id,
  slug,
  name,
  release_year: year,
  type: 0,
  rating: 91.2,
  genres,
  demo_available: false,
  cover_url: coverUrl(`co${id.toString(36)}`),
});

const tierList = {
  id: LIST_ID,
  username: 'ana_plays',
  title: 'Metroidvanias, ranked by how lost I got',
  description: 'Only the ones I finished.',
  visibility: 'PUBLIC',
  mode: 'tier',
  tiers: ['S', 'A', 'B', 'C', 'D'],
  folder: FOLDER_ID,
  size: 2,
  items: [
    {
      position: 1,
      game_id: 1942,
      tier: 'S',
      game: game(1942, 'hollow-knight', 'Hollow Knight', 2017, ['Platform', 'Adventure']),
    },
    {
      position: 2,
      game_id: 2087,
      tier: 'A',
      game: game(2087, 'ori-and-the-blind-forest', 'Ori and the Blind Forest', 2015, ['Platform']),
    },
  ],
  likes: 7,
  comments: 2,
  awards: { gg: 1 },
  removed: false,
  created_at: '2026-11-04T20:11:42.318Z',
  updated_at: '2026-11-05T08:02:19.604Z',
};
const newList = { ...tierList, likes: 0, comments: 0, awards: {}, updated_at: tierList.created_at };
const folder = {
  id: FOLDER_ID,
  name: 'Favoritas',
  created_at: '2026-11-01T12:00:00.000Z',
  updated_at: '2026-11-01T12:00:00.000Z',
};

const NOT_FOUND: ErrorRef[] = ['not_found:list_not_found'];
const FOLDER_NOT_FOUND: ErrorRef[] = ['not_found:folder_not_found'];
const ITEMS =
  '`items` (up to 500) are `{ game_id, tier }` in the list’s order: each a catalog game (else 400 `fields_invalid` field `items.N.game_id`), each game once (a repeat: the same refusal), and `tier` one of the list’s `tiers` in a tier list and absent in the other modes (else `items.N.tier`). The first item refused is named.';
const FIELDS =
  '`title` 1 to 100 characters, `description` up to 2,000 (code points; line breaks and tabs kept, no other control character; a title of white space alone is 400 `fields_invalid`); `visibility` PUBLIC, FOLLOWERS or PRIVATE; `mode` list, ranked or tier; `folder` one of your folders’ ids or null (another id: 400 `fields_invalid` field `folder`); `tiers` only in a tier list (else 400 `fields_invalid` field `tiers`): 1 to 10 distinct labels of 1 to 20 characters, in board order.';
const SHAPE =
  '`items` carry their catalog rows shaped like `/games` (`game` null when the catalog lost the game); `size` is the number of items; `comments` leaves out those moderation removed; `awards` is `{award id: count}`. `visibility` is shown to the author alone, as on `/profiles/{u}/lists`.';
const UNKNOWN = 'Another account’s list, or none: 404 `list_not_found`.';
const REMOVED = 'A list moderation removed cannot be changed: 403 `forbidden` reason `removed` (it can be deleted).';

export const LIST_DOCS = {
  create: doc({
    summary: 'Make a list',
    description: `A list of catalog games. ${FIELDS} Omitted: \`description\` "", \`visibility\` PUBLIC, \`mode\` list, \`folder\` null, \`items\` [], and a tier list’s \`tiers\` S, A, B, C, D. ${ITEMS} It shows in the feed at once (an item of kind \`list\`). An account holds at most 1,000 lists: then 409 \`conflict\` reason \`lists_full\` with \`limit\` and \`count\`. ${SHAPE}`,
    errors: ['invalid_request:fields_invalid', 'conflict:lists_full'],
    status: 201,
    response: LIST_ANSWERS.list,
    example: { data: newList },
  }),
  get: doc({
    summary: 'One list',
    description: `Anyone who may see it, as on \`/profiles/{u}/lists\`: PUBLIC to everyone, FOLLOWERS to the author’s followers, PRIVATE to the author alone, and nobody across a block either way. A list moderation removed shows to its author alone, with \`removed: true\`. Any other reader, or an unknown id: 404 \`list_not_found\`. ${SHAPE}`,
    errors: NOT_FOUND,
    headers: {
      'Cache-Control':
        '`private, no-store` when the list is not PUBLIC or the reader is signed in; otherwise `private, no-cache`.',
    },
    response: LIST_ANSWERS.list,
    example: { data: tierList },
  }),
  update: doc({
    summary: 'Change your list',
    description: `Only the fields sent change (\`updated_at\` with them). ${FIELDS} \`items\` is not taken here (400 field \`items\` reason \`not_allowed\`): they change through \`PUT /lists/{id}/items\`. A mode change carries the games along: leaving tier mode drops the tiers (the items’ too); a list becoming a tier list gets the labels sent (default S, A, B, C, D) and puts its games in the first tier; new labels for a tier list keep each game whose tier stays, and move the others to the label now in their tier’s place (the last one when there are fewer). ${UNKNOWN} ${REMOVED} An empty body changes nothing and answers the list.`,
    errors: [...NOT_FOUND, 'invalid_request:fields_invalid', 'invalid_request:not_allowed', 'forbidden:removed'],
    response: LIST_ANSWERS.list,
    example: { data: { ...tierList, title: 'Metroidvanias I finished', visibility: 'FOLLOWERS' } },
  }),
  items: doc({
    summary: 'Replace your list’s items',
    description: `The list holds exactly the items sent, in that order (\`[]\` empties it); \`size\` and \`updated_at\` follow. ${ITEMS} ${UNKNOWN} ${REMOVED}`,
    errors: [...NOT_FOUND, 'invalid_request:fields_invalid', 'forbidden:removed'],
    response: LIST_ANSWERS.list,
    example: { data: tierList },
  }),
  delete: doc({
    summary: 'Delete your list',
    description: `Deletes the list, removed by moderation or not, with its items, its feed item and the comments on it. ${UNKNOWN}`,
    errors: NOT_FOUND,
    response: Deleted,
    example: { data: { id: LIST_ID, deleted: true } },
  }),
};

const FOLDER_NAME =
  '`name` 1 to 60 characters, not white space alone (400 `fields_invalid`); two folders may share a name.';
const FOLDER_UNKNOWN = 'Another account’s folder, or none: 404 `folder_not_found`.';

export const FOLDER_DOCS = {
  create: doc({
    summary: 'Make a list folder',
    description: `${FOLDER_NAME} A list joins it with \`folder\` (its \`id\`) on \`POST /lists\` or \`PATCH /lists/{id}\`; \`GET /profiles/{username}/lists/folders\` shows your folders with their counts. An account holds at most 100 folders: then 409 \`conflict\` reason \`folders_full\` with \`limit\` and \`count\`.`,
    errors: ['invalid_request:fields_invalid', 'conflict:folders_full'],
    status: 201,
    response: LIST_ANSWERS.folder,
    example: { data: folder },
  }),
  update: doc({
    summary: 'Rename a list folder',
    description: `${FOLDER_NAME} ${FOLDER_UNKNOWN}`,
    errors: [...FOLDER_NOT_FOUND, 'invalid_request:fields_invalid'],
    response: LIST_ANSWERS.folder,
    example: { data: { ...folder, name: 'Favoritas de sempre', updated_at: '2026-11-06T09:30:00.000Z' } },
  }),
  delete: doc({
    summary: 'Delete a list folder',
    description: `Deletes the folder; its lists stay, in no folder. ${FOLDER_UNKNOWN}`,
    errors: FOLDER_NOT_FOUND,
    response: Deleted,
    example: { data: { id: FOLDER_ID, deleted: true } },
  }),
};
