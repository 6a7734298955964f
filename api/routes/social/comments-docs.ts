// The reference's words for comments (DECISIONS: Likes and comments; Cursor reads).
import { doc, type ErrorRef } from '../../openapi/route-facts.js';
import { COMMENT_ANSWERS } from '../../openapi/shapes/likes-comments.js';

const PLACE_ERRORS: ErrorRef[] = [
  'not_found',
  'not_found:review_not_found',
  'not_found:list_not_found',
  'not_found:screenshot_not_found',
  'not_found:session_not_found',
  'not_found:journey_not_found',
  'forbidden:followers_only',
];
const PLACE =
  '`on` is PROFILE with the person’s username (current, or a 30-day alias) as `id`, or REVIEW, LIST, SCREENSHOT, DIARY (a play session) or JOURNEY with the thing’s id (the public id of a list or screenshot). A person hidden by a block either way, or a username nobody holds, is 404 `not_found`; a thing you may not see (its own visibility against what you are to its author, a block either way, or moderation’s removal) or no such thing is 404 with its kind’s reason (`review_not_found`, `list_not_found`, `screenshot_not_found`, `session_not_found`, `journey_not_found`). A private account (library visibility FOLLOWERS or PRIVATE) keeps its profile conversation to itself and its followers: anyone else is 403 `forbidden` reason `followers_only`.';

const comment = {
  id: '8c2f4a91-5d3e-4b7a-9e16-0f2d8c7b3a54',
  on: { kind: 'REVIEW', id: '3f6b9c2e-8d41-4a7e-b0c5-9e2d7a1f4b63' },
  author: {
    username: 'bruno_rpg',
    display_name: 'Bruno',
    avatar_url: 'https://jogatina.example/media/avatars/9a1e.avif',
  },
  body: 'The Bloody Baron still gets me.\nEvery time.',
  created_at: '2026-11-24T21:30:12.204518Z',
};

export const COMMENT_DOCS = {
  list: doc({
    summary: 'A conversation',
    description: `${PLACE} Newest first, by cursor: \`before\` is the last item’s \`created_at\` (to the microsecond) and \`next_before\` is null on the last page. Left out, as in the profile conversation of GET /profiles/{username}/social: comments moderation removed, authors blocked either way by you or blocked by the owner of the profile or thing, and suspended authors (staff and the author still see those).`,
    errors: PLACE_ERRORS,
    headers: {
      'Cache-Control':
        '`private, no-store` when you are signed in (what shows depends on who asks); otherwise `private, no-cache`.',
    },
    response: COMMENT_ANSWERS.comments,
    example: { data: [comment], has_more: false, next_before: null },
  }),
  create: doc({
    summary: 'Write a comment',
    description: `${PLACE} \`body\` 1 to 1,000 characters (code points), line breaks and tabs kept, no other control character, and not white space alone (400 \`fields_invalid\` field \`body\`). 30 comments per account in any 60 minutes, then 429 \`rate_limited\` with \`retry_after\` (seconds until one is free); a refused comment uses none.`,
    errors: [...PLACE_ERRORS, 'invalid_request:fields_invalid'],
    status: 201,
    response: COMMENT_ANSWERS.comment,
    example: { data: comment },
  }),
  delete: doc({
    summary: 'Delete a comment',
    description:
      'By its author (removed by moderation or not), or by the owner of the profile or thing it is on. Anyone else, no such comment, or an id that is not a UUID: 404 `comment_not_found`.',
    errors: ['not_found:comment_not_found'],
    response: COMMENT_ANSWERS.deleted,
    example: { data: { id: comment.id, deleted: true } },
  }),
};
