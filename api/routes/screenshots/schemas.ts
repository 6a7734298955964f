// The inputs of the capture routes (DECISIONS: Screenshots; Fields and defaults): the form fields of an
// upload beside its image, and the JSON body of an edit. The schema refuses what it can see with
// validation's reasons; a game the catalog lacks is the data's refusal (400 `fields_invalid`).
import { gameId, text, visibility } from '../../../shared/content/content-fields.js';
import { CAPTURE_DESCRIPTION } from '../../../shared/screenshots/capture-rules.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

const fields: Record<string, SchemaObject> = {
  game_id: gameId,
  description: text(CAPTURE_DESCRIPTION.max),
  contains_spoilers: { type: 'boolean' },
  visibility,
};

/** The upload's form fields (the file `image` is read beside them); omitted ones take their defaults. */
export const captureFormFields: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['game_id'],
  properties: {
    ...fields,
    description: { ...fields.description, default: '' },
    contains_spoilers: { type: 'boolean', default: false },
    visibility: { ...visibility, default: 'PUBLIC' },
  },
};

/** Only the fields sent change, so nothing here has a default. */
export const capturePatchBody: SchemaObject = { type: 'object', additionalProperties: false, properties: fields };

/** A capture in a path: its public id (anything else names nobody's capture: 404). */
export const captureParams: SchemaObject = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 100 } },
};
