// The reference's words for the owner's copies (spec: GET /library/copies, Pagination rule 4; README: Own
// copies, Cursors).
import { doc } from '../../openapi/route-facts.js';
import { SERVICE_ANSWERS } from '../../openapi/shapes/service.js';

export const COPIES_DOC = doc({
  summary: 'Your own copies',
  description:
    '`limit` 1 to 100 (default 50); `sort` newest (default), oldest or game. Pass `next_cursor` back as `cursor` for the next page; it is null on the last. A cursor belongs to its sort: one made for another sort starts that sort over, and an edited or foreign one is 400 `bad_format` with `field` `cursor`. Private to the owner.',
  errors: ['invalid_request:bad_format'],
  headers: { 'Cache-Control': '`private, no-store`' },
  response: SERVICE_ANSWERS.copies,
  example: {
    data: [
      {
        id: '61c2f9a4-0d8b-4e37-b5a1-c7e3f2d90b18',
        game_id: 1942,
        platform_id: 6,
        format: 'physical',
        note: 'Collector’s edition',
        created_at: '2026-10-05T16:22:41.093Z',
      },
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
});
