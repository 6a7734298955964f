// The reference's words for likes (DECISIONS: Likes and comments; Cursor reads).
import { doc, type ErrorRef } from '../../openapi/route-facts.js';
import { LIKE_ANSWERS } from '../../openapi/shapes/likes-comments.js';

const NOT_SEEN: ErrorRef[] = [
  'not_found',
  'not_found:review_not_found',
  'not_found:list_not_found',
  'not_found:screenshot_not_found',
  'not_found:journey_not_found',
  'invalid_request:own_content',
];
const WHO =
  '`kind` is review, list, screenshot or journey (any other is 404 `not_found`); `id` is a review’s or journey’s id, or a list’s or screenshot’s public id. Only what you may see: PUBLIC to everyone, FOLLOWERS to its author’s followers, PRIVATE to nobody but its author, nothing across a block either way, and nothing moderation removed; anything else, or no such thing, is 404 with the kind’s reason (`review_not_found`, `list_not_found`, `screenshot_not_found`, `journey_not_found`). Your own thing is 400 `invalid_request` reason `own_content`.';

export const LIKE_DOCS = {
  like: doc({
    summary: 'Like a thing',
    description: `${WHO} Repeating changes nothing: the thing counts each person once, however many likes arrive at once. Answers whether you like it and how many people do.`,
    errors: NOT_SEEN,
    response: LIKE_ANSWERS.state,
    example: { data: { liked: true, likes: 13 } },
  }),
  unlike: doc({
    summary: 'Stop liking a thing',
    description: `${WHO} Repeating, or unliking what you never liked, changes nothing.`,
    errors: NOT_SEEN,
    response: LIKE_ANSWERS.state,
    example: { data: { liked: false, likes: 12 } },
  }),
  list: doc({
    summary: 'What you like',
    description:
      'Your likes, newest first, by cursor: `before` is the last item’s `created_at` (to the microsecond) and `next_before` is null on the last page. `kind` keeps one kind. Only what you may still see is listed: a thing since made private to you, removed by moderation, or behind a block either way is left out (your like stays, and counts).',
    response: LIKE_ANSWERS.likes,
    example: {
      data: [
        {
          kind: 'review',
          id: '3f6b9c2e-8d41-4a7e-b0c5-9e2d7a1f4b63',
          username: 'ana_plays',
          likes: 13,
          created_at: '2026-11-24T21:14:08.512345Z',
        },
        {
          kind: 'list',
          id: 'a41c09e7b2d5',
          username: 'bruno_rpg',
          likes: 4,
          created_at: '2026-11-24T20:02:51.100231Z',
        },
      ],
      has_more: true,
      next_before: '2026-11-24T20:02:51.100231Z',
    },
  }),
};
