// The journal's input (DECISIONS: Journal, Fields and defaults, Cursor reads): what the schema can see is
// refused with validation's reasons; what only the data can (an unknown game, times) is the routes' own.
// PATCH bodies take the same fields, none required and with no defaults: only the fields sent change.
import { cursorQuery, gameId, optionalTime, text, time, visibility } from '../../../shared/content/content-fields.js';
import { JOURNEY_PAGE, SESSION_LIMIT } from '../../../shared/journal/rows.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

const sessionFields: Record<string, SchemaObject> = {
  game_id: gameId,
  started_at: time,
  ended_at: optionalTime,
  note: text(2000),
  visibility,
};

export const sessionCreateBody: SchemaObject = {
  type: 'object',
  required: ['game_id', 'started_at'],
  additionalProperties: false,
  properties: sessionFields,
};

export const sessionPatchBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: sessionFields,
};

export const sessionsQuery: SchemaObject = {
  type: 'object',
  properties: {
    // A catalog id, or a slug as GET /activity takes it.
    game: { type: 'string', maxLength: 200, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
    ...cursorQuery,
    limit: { type: 'integer', minimum: SESSION_LIMIT.min, maximum: SESSION_LIMIT.max, default: SESSION_LIMIT.default },
  },
};

const journeyFields: Record<string, SchemaObject> = {
  game_id: gameId,
  title: text(100, 1),
  started_at: time,
  finished_at: optionalTime,
  visibility,
};

export const journeyCreateBody: SchemaObject = {
  type: 'object',
  required: ['game_id', 'title', 'started_at'],
  additionalProperties: false,
  properties: journeyFields,
};

export const journeyPatchBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: journeyFields,
};

export const journeysQuery: SchemaObject = {
  type: 'object',
  properties: {
    page: pageParameter(JOURNEY_PAGE.maxPage),
    limit: { type: 'integer', minimum: 1, maximum: JOURNEY_PAGE.maxLimit, default: JOURNEY_PAGE.defaultLimit },
  },
};
