// The reference's words for removing and restoring people's content (DECISIONS: Staff and moderation,
// People's own content: Shared rules). Who may call is carried by staffWithTwoFactor() itself.
import { doc } from '../../openapi/route-facts.js';
import { MODERATION_ANSWERS } from '../../openapi/shapes/moderation.js';

export const CONTENT_MODERATION_DOCS = {
  moderate: doc({
    summary: 'Remove or restore a piece of content',
    description:
      '`kind` is review, list, screenshot, session, journey or comment; `id` is the id a client uses for it (the public id of a list or screenshot, as reports name them). `remove` makes it gone for everyone but its author, who sees `removed: true` and can delete it but not change it (403 `forbidden` reason `removed`); its feed items are hidden until `restore`. Repeating an action answers the same (`removed_at` stays the first removal’s time) and is recorded again. An unknown kind or id is 404 `content_not_found`. Every call is recorded in the moderator actions as `remove_content` or `restore_content` about `content` `<kind>:<id>`, with the `note`. Resolving a report with outcome `content_removed` removes its target the same way.',
    errors: ['not_found:content_not_found'],
    response: MODERATION_ANSWERS.content,
    example: {
      data: {
        kind: 'review',
        id: 'f0d94b2e-7a15-4c38-b6e1-2d8a5c9f3e70',
        removed: true,
        removed_at: '2026-11-21T15:04:12.000Z',
      },
    },
  }),
};
