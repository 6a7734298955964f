// The fields people's content shares (DECISIONS: People's own content, Shared rules), as JSON Schema for the
// routes' validate(): what the schema can see is refused with validation's reasons (`missing`, `wrong_type`,
// `out_of_range`, `too_long`, `bad_format`, `unknown_field`). Texts count code points (ajv counts them so),
// keep line breaks and tabs, and refuse NUL and every other control character.
import type { SchemaObject } from '../platform/validation/ajv.js';

export const CONTENT_VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;
export type ContentVisibility = (typeof CONTENT_VISIBILITIES)[number];

/** C0 controls but tab, line feed and carriage return; DEL; C1 controls. */
const NO_CONTROLS = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$';

/** A text of `min` to `max` characters with no control characters but tab and line breaks. */
export function text(max: number, min = 0): SchemaObject {
  return { type: 'string', minLength: min, maxLength: max, pattern: NO_CONTROLS };
}

/** An integer rating from 0 to 100, or null (no rating). */
export const rating: SchemaObject = { type: ['integer', 'null'], minimum: 0, maximum: 100 };

/** A catalog game's id in a body; whether the catalog knows it is the data's refusal (`fields_invalid`). */
export const gameId: SchemaObject = { type: 'integer', minimum: 1, maximum: 2147483647 };

/** A platform id, or null. */
export const platformId: SchemaObject = { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 };

/** An ISO 8601 time with its offset; whether it is in the future is the data's refusal. */
export const time: SchemaObject = { type: 'string', format: 'date-time', maxLength: 40 };
export const optionalTime: SchemaObject = { type: ['string', 'null'], format: 'date-time', maxLength: 40 };

export const visibility: SchemaObject = { type: 'string', enum: [...CONTENT_VISIBILITIES] };

/** A thing's id in a path: a UUID (anything else is nobody's thing, 404, as an unknown id is). */
export const idParams: SchemaObject = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 100 } },
};

/** A collection read by cursor (DECISIONS: Cursor reads): `before` and `limit` 1 to 100, default 20. */
export const cursorQuery: Record<string, SchemaObject> = {
  before: { type: 'string', format: 'date-time', maxLength: 40 },
  limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
};
