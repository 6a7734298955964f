// The input of the like and comment routes (DECISIONS: Likes and comments; Cursor reads; Refusals): what the
// schema can see is refused with validation's reasons. Path values are not input fields: a like kind or id
// that names nothing is 404, so neither is an enum here.
import { COMMENT_TARGETS } from '../../../shared/comments/rows.js';
import { COMMENT_BODY, COMMENTS_PAGE } from '../../../shared/comments/comment-rules.js';
import { cursorQuery, text } from '../../../shared/content/content-fields.js';
import { LIKE_KINDS, LIKES_PAGE } from '../../../shared/social/like-rules.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

/** A thing named in a body or query: a uuid, a public id, or (PROFILE) a username. */
const placeId: SchemaObject = { type: 'string', minLength: 1, maxLength: 100 };

export const likeParams: SchemaObject = {
  type: 'object',
  required: ['kind', 'id'],
  properties: {
    kind: {
      type: 'string',
      maxLength: 100,
      description: 'review, list, screenshot or journey; any other is 404.',
    },
    id: {
      type: 'string',
      maxLength: 100,
      description: 'Reviews and journeys: their id; lists and screenshots: their public id.',
    },
  },
};

export const likesQuery: SchemaObject = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: [...LIKE_KINDS] },
    ...cursorQuery,
    limit: { type: 'integer', minimum: LIKES_PAGE.min, maximum: LIKES_PAGE.max, default: LIKES_PAGE.default },
  },
};

export const commentsQuery: SchemaObject = {
  type: 'object',
  required: ['on', 'id'],
  properties: {
    on: { type: 'string', enum: [...COMMENT_TARGETS] },
    id: placeId,
    ...cursorQuery,
    limit: { type: 'integer', minimum: COMMENTS_PAGE.min, maximum: COMMENTS_PAGE.max, default: COMMENTS_PAGE.default },
  },
};

export const commentBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['on', 'id', 'body'],
  properties: {
    on: { type: 'string', enum: [...COMMENT_TARGETS] },
    id: placeId,
    body: text(COMMENT_BODY.max, COMMENT_BODY.min),
  },
};
