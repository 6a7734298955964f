// The bodies of the list routes (DECISIONS: Lists; Fields and defaults): the schema refuses what it can see
// with validation's reasons (a tier label repeated is `duplicate`); a text of white space only, a folder or
// game the data lacks, a game placed twice and a tier that is not the list's are the data's refusals (400
// `fields_invalid` naming the place, `items.4.tier`).
import { gameId, text, visibility } from '../../../shared/content/content-fields.js';
import { LIST_MODES } from '../../../shared/people/lists.js';
import { LIST_BOUNDS } from '../../../shared/lists/rows.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

const tiers: SchemaObject = {
  type: 'array',
  minItems: LIST_BOUNDS.tiers.min,
  maxItems: LIST_BOUNDS.tiers.max,
  uniqueItems: true,
  items: text(LIST_BOUNDS.tierLabel.max, LIST_BOUNDS.tierLabel.min),
};

const items: SchemaObject = {
  type: 'array',
  maxItems: LIST_BOUNDS.items.max,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['game_id'],
    properties: { game_id: gameId, tier: text(LIST_BOUNDS.tierLabel.max, LIST_BOUNDS.tierLabel.min) },
  },
};

const fields: Record<string, SchemaObject> = {
  title: text(LIST_BOUNDS.title.max, LIST_BOUNDS.title.min),
  description: text(LIST_BOUNDS.description.max),
  visibility,
  mode: { type: 'string', enum: [...LIST_MODES] },
  // A folder's public id, or null for none.
  folder: { type: ['string', 'null'], minLength: 1, maxLength: 100 },
  tiers,
};

export const listCreateBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: {
    ...fields,
    description: { ...fields.description, default: '' },
    visibility: { ...visibility, default: 'PUBLIC' },
    mode: { ...fields.mode, default: 'list' },
    folder: { ...fields.folder, default: null },
    items: { ...items, default: [] },
  },
};

/**
 * Only the fields sent change, so nothing here has a default. `items` is named so that sending it is
 * refused as not allowed here (items change through PUT /lists/{id}/items), not as an unknown field.
 */
export const listPatchBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: { ...fields, items: { description: 'Not allowed here: send the items to PUT /lists/{id}/items.' } },
};

export const listItemsBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: { items },
};

export const folderBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: text(LIST_BOUNDS.folderName.max, LIST_BOUNDS.folderName.min) },
};
