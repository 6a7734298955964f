// Route schemas that routes of several areas share.
import type { SchemaObject } from '../../shared/platform/validation/ajv.js';

/** A path's `:id`, checked for length only: whether it names anything is the route's to find out (404). */
export const idParams: SchemaObject = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
};
