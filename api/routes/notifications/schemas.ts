// The input of the notification routes (DECISIONS: Notifications; Cursor reads; Refusals): what the schema can
// see is refused with validation's reasons. Which of `ids` and `all` a mark sends is the route's to judge.
import { cursorQuery } from '../../../shared/content/content-fields.js';
import { NOTIFICATIONS_PAGE } from '../../../shared/notifications/load-notifications.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

/** How many notifications one mark may name. */
export const MARK_IDS_MAX = 100;

export const notificationsQuery: SchemaObject = {
  type: 'object',
  properties: {
    unread: { type: 'integer', minimum: 0, maximum: 1, description: '1: only the unread ones.' },
    ...cursorQuery,
    limit: {
      type: 'integer',
      minimum: NOTIFICATIONS_PAGE.min,
      maximum: NOTIFICATIONS_PAGE.max,
      default: NOTIFICATIONS_PAGE.default,
    },
  },
};

export const markReadBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ids: {
      type: 'array',
      minItems: 1,
      maxItems: MARK_IDS_MAX,
      items: {
        type: 'string',
        pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      },
      description: 'The notifications to mark read, by id (1 to 100).',
    },
    all: { type: 'boolean', const: true, description: '`true`: every unread notification.' },
  },
};
