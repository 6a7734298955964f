// The input of the owner's copies (DECISIONS: Library; Fields and defaults): `game_id` and `format` are
// required to create one; a PATCH takes any of the same fields.
import { gameId, platformId, text } from '../../../shared/content/content-fields.js';
import { COPY_LIMIT, COPY_SORTS } from '../../../shared/library/copies.js';
import { COPY_NOTE_MAX } from '../../../shared/library/copy-writes.js';
import { COPY_FORMATS } from '../../../shared/library/rows.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

export const copiesQuery: SchemaObject = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: COPY_LIMIT.min, maximum: COPY_LIMIT.max, default: COPY_LIMIT.default },
    sort: { type: 'string', enum: [...COPY_SORTS], default: 'newest' },
    // shared/platform/paging/cursor.ts refuses anything longer; the schema says so first.
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
};

const copyProperties: Record<string, SchemaObject> = {
  game_id: gameId,
  platform_id: platformId,
  format: { type: 'string', enum: [...COPY_FORMATS] },
  note: text(COPY_NOTE_MAX),
};

export const copyCreateBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['game_id', 'format'],
  properties: copyProperties,
};

export const copyPatchBody: SchemaObject = { type: 'object', additionalProperties: false, properties: copyProperties };
