// Moderation of people's content (DECISIONS: Staff and moderation, POST /moderation/content/{kind}/{id}):
// remove or restore a review, list, screenshot, session, journey or comment. Session only, for moderators
// and admins whose session passed two-factor, as every moderation route.
import { CONTENT_ACTIONS, moderateContent, type ContentAction } from '../../../shared/moderation/content-removal.js';
import { text } from '../../../shared/content/content-fields.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { CONTENT_MODERATION_DOCS } from './content-docs.js';
import { staffWithTwoFactor } from './staff-access.js';

// Path values are not input fields: a kind or id that names no content is 404, so neither is an enum here.
const contentParams: SchemaObject = {
  type: 'object',
  required: ['kind', 'id'],
  properties: {
    kind: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'review, list, screenshot, session, journey or comment; any other is 404 `content_not_found`.',
    },
    id: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'Lists and screenshots: their public id; the rest: their id.',
    },
  },
};

const contentBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: { action: { type: 'string', enum: [...CONTENT_ACTIONS] }, note: text(1000) },
};

export function contentModerationRoutes(api: VersionedRoutes): void {
  api.post(
    '/moderation/content/:kind/:id',
    sessionOnly({ allowance: 'write' }),
    staffWithTwoFactor(),
    validate({ params: contentParams, body: contentBody }),
    CONTENT_MODERATION_DOCS.moderate,
    async (ctx) => {
      const { kind, id } = ctx.state.input.params as { kind: string; id: string };
      const body = ctx.state.input.body as { action: ContentAction; note?: string };
      ctx.body = { data: await moderateContent(ctx.services.knex, sessionCaller(ctx).account, kind, id, body) };
    },
  );
}
