// The reference's words for the owner's copies (spec: GET /library/copies, Pagination rule 4; docs/api-notes.md: Own
// copies, Cursors; DECISIONS: Library).
import { doc } from '../../openapi/route-facts.js';
import { LIBRARY_ANSWERS } from '../../openapi/shapes/library.js';
import { Deleted } from '../../openapi/shapes/pages-and-images.js';
import { SERVICE_ANSWERS } from '../../openapi/shapes/service.js';

const copy = {
  id: '61c2f9a4-0d8b-4e37-b5a1-c7e3f2d90b18',
  game_id: 1942,
  platform_id: 6,
  format: 'physical',
  note: 'Collector’s edition',
  created_at: '2026-10-05T16:22:41.093Z',
};

const NO_COPY = 'not_found:copy_not_found' as const;
const FIELDS =
  '`platform_id` is one of the game’s platforms or null; `format` digital or physical; `note` up to 200 characters (line breaks and tabs kept, other control characters refused).';
const DATA_REFUSALS =
  'A `game_id` the catalog does not have, or a platform that is not the game’s, is 400 `fields_invalid` naming the field.';
const FULL = 'At most 20 copies per game: one more is 409 `copies_full` with `limit` and `count`.';

export const COPY_DOCS = {
  list: doc({
    summary: 'Your own copies',
    description:
      '`limit` 1 to 100 (default 50); `sort` newest (default), oldest or game. Pass `next_cursor` back as `cursor` for the next page; it is null on the last. A cursor belongs to its sort: one made for another sort starts that sort over, and an edited or foreign one is 400 `bad_format` with `field` `cursor`. Private to the owner.',
    errors: ['invalid_request:bad_format'],
    headers: { 'Cache-Control': '`private, no-store`' },
    response: SERVICE_ANSWERS.copies,
    example: {
      data: [
        copy,
        {
          id: '0b7d3e58-4a2f-4c61-9e8d-5f1a6b2c7d39',
          game_id: 26758,
          platform_id: null,
          format: 'digital',
          note: '',
          created_at: '2026-10-02T11:08:15.447Z',
        },
      ],
      page: { size: 2, has_more: true },
      next_cursor:
        'WzEsIm5ld2VzdCIsWyIyMDI2LTEwLTAyVDExOjA4OjE1LjQ0NzIxM1oiLCIwYjdkM2U1OC00YTJmLTRjNjEtOWU4ZC01ZjFhNmIyYzdkMzkiXV0.-IZnfi4Dk99Qh4Wbj2i2mg',
    },
  }),
  create: doc({
    summary: 'Add a copy you own',
    description: `\`game_id\` and \`format\` are required; ${FIELDS} ${DATA_REFUSALS} ${FULL}`,
    errors: ['invalid_request:fields_invalid', 'conflict:copies_full'],
    status: 201,
    response: LIBRARY_ANSWERS.copy,
    example: { data: copy },
  }),
  update: doc({
    summary: 'Change a copy',
    description: `Any of the fields; only those sent change (an empty body changes nothing). ${FIELDS} ${DATA_REFUSALS} Moving a copy to another game checks its platform (sent, or the one it keeps) against that game, and that game’s 20 places (409 \`copies_full\`). Another account’s copy, or an id that is none, is 404 \`copy_not_found\`.`,
    errors: ['invalid_request:fields_invalid', 'conflict:copies_full', NO_COPY],
    response: LIBRARY_ANSWERS.copy,
    example: { data: { ...copy, note: 'Collector’s edition, with the map' } },
  }),
  delete: doc({
    summary: 'Delete a copy',
    description: 'Another account’s copy, or an id that is none, is 404 `copy_not_found`.',
    errors: [NO_COPY],
    response: Deleted,
    example: { data: { id: copy.id, deleted: true } },
  }),
};
