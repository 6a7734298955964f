// The input of the owner's library routes (DECISIONS: Library; Fields and defaults): nothing is required in
// an entry, and no schema here carries a default, so a PATCH sees exactly the fields sent (a PUT fills the
// rest in shared/library/entry-rules.ts).
import { gameId, optionalTime, platformId, rating } from '../../../shared/content/content-fields.js';
import { IMPORT_ENTRIES } from '../../../shared/library/library-import.js';
import { LIBRARY_FLAGS, LIBRARY_SORTS, LIBRARY_STATUSES } from '../../../shared/people/library.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

/** `{game}`: a catalog id (digits) or a slug; which game it names is the route's to find (404). */
export const gameParams: SchemaObject = {
  type: 'object',
  required: ['game'],
  properties: { game: { type: 'string', minLength: 1, maxLength: 200 } },
};

const entryProperties: Record<string, SchemaObject> = {
  status: { type: ['string', 'null'], enum: [...LIBRARY_STATUSES, null] },
  playing: { type: 'boolean' },
  backlog: { type: 'boolean' },
  wishlist: { type: 'boolean' },
  liked: { type: 'boolean' },
  ignored: { type: 'boolean' },
  rating,
  platform_id: platformId,
  finished_at: optionalTime,
};

export const entryBody: SchemaObject = { type: 'object', additionalProperties: false, properties: entryProperties };

export const importBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['entries'],
  properties: {
    entries: {
      type: 'array',
      minItems: IMPORT_ENTRIES.min,
      maxItems: IMPORT_ENTRIES.max,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['game_id'],
        properties: { game_id: gameId, ...entryProperties },
      },
    },
  },
};

/** GET /profiles/{u}/library's parameters, and `ignored`. */
export const ownLibraryQuery: SchemaObject = {
  type: 'object',
  properties: {
    page: pageParameter(),
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    status: { type: 'string', enum: [...LIBRARY_STATUSES] },
    ...Object.fromEntries([...LIBRARY_FLAGS, 'ignored'].map((flag) => [flag, { type: 'boolean' }])),
    sort: { type: 'string', enum: [...LIBRARY_SORTS], default: 'updated' },
    // 1 adds the games; 0 is the same as leaving it out.
    games: { type: 'integer', minimum: 0, maximum: 1 },
  },
};
