import { SCOPES } from '../../../shared/keys/scopes.js';
import { EVENT_TYPES } from '../../../shared/events/event-types.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

const name: SchemaObject = { type: 'string', minLength: 1, maxLength: 60 };
const description: SchemaObject = { type: 'string', maxLength: 400 };
const expiresInDays: SchemaObject = { type: ['integer', 'null'], minimum: 1, maximum: 3650 };

export const appCreateBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name, description },
};

export const appPatchBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name,
    description,
    scopes: { type: 'array', uniqueItems: true, maxItems: SCOPES.length, items: { type: 'string', enum: [...SCOPES] } },
    events: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['url', 'types'],
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 512 },
        types: {
          type: 'array',
          minItems: 1,
          maxItems: EVENT_TYPES.length,
          uniqueItems: true,
          items: { type: 'string', enum: [...EVENT_TYPES] },
        },
      },
    },
  },
};

export const appKeyCreateBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name, expires_in_days: expiresInDays },
};

export const accountKeyCreateBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['app_id', 'name'],
  properties: { app_id: { type: 'string', format: 'uuid' }, name, expires_in_days: expiresInDays },
};
