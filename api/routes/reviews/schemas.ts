// The bodies of the review routes (DECISIONS: Reviews; Fields and defaults): the schema refuses what it can
// see with validation's reasons; a body of white space only, and a game the catalog lacks, are the data's
// refusals (400 `fields_invalid`).
import { gameId, rating, text, visibility } from '../../../shared/content/content-fields.js';
import { REVIEW_BODY } from '../../../shared/reviews/review-rules.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

const fields: Record<string, SchemaObject> = {
  game_id: gameId,
  body: text(REVIEW_BODY.max, REVIEW_BODY.min),
  rating,
  contains_spoilers: { type: 'boolean' },
  visibility,
};

export const reviewCreateBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['game_id', 'body'],
  properties: {
    ...fields,
    rating: { ...rating, default: null },
    contains_spoilers: { type: 'boolean', default: false },
    visibility: { ...visibility, default: 'PUBLIC' },
  },
};

/** Only the fields sent change, so nothing here has a default. */
export const reviewPatchBody: SchemaObject = { type: 'object', additionalProperties: false, properties: fields };
