// The reference's words for reviews (DECISIONS: Reviews; Shared rules; Refusals).
import { coverUrl } from '../../../shared/content/game-covers.js';
import { doc, type ErrorRef } from '../../openapi/route-facts.js';
import { Deleted } from '../../openapi/shapes/pages-and-images.js';
import { REVIEW_ANSWERS } from '../../openapi/shapes/reviews.js';

const REVIEW_ID = '3f6b9c2e-8d41-4a7e-b0c5-9e2d7a1f4b63';

const review = {
  id: REVIEW_ID,
  username: 'ana_plays',
  game_id: 1942,
  game: { slug: 'the-witcher-3-wild-hunt', name: 'The Witcher 3: Wild Hunt', cover_url: coverUrl('co1wyy') },
  body: 'Velen at night, a storm over the swamp, and the Bloody Baron’s story.\nStill the best quest writing I know.',
  rating: 95,
  contains_spoilers: false,
  visibility: 'PUBLIC',
  likes: 12,
  comments: 3,
  awards: { masterpiece: 2 },
  removed: false,
  created_at: '2026-11-02T21:14:08.512Z',
  updated_at: '2026-11-03T09:40:51.007Z',
};
const newReview = { ...review, likes: 0, comments: 0, awards: {}, updated_at: review.created_at };

const NOT_FOUND: ErrorRef[] = ['not_found:review_not_found'];
const FIELDS =
  '`body` 1 to 10,000 characters (code points), line breaks and tabs kept, no other control character, and not white space alone (400 `fields_invalid` field `body`); `rating` an integer from 0 to 100 or null; `visibility` PUBLIC, FOLLOWERS or PRIVATE; a `game_id` the catalog does not have is 400 `fields_invalid` field `game_id`.';
const SHAPE =
  '`username` is the author’s current one; `game` is null when the catalog lost the game; `comments` leaves out those moderation removed; `awards` is `{award id: count}`.';

export const REVIEW_DOCS = {
  create: doc({
    summary: 'Write a review',
    description: `A review of a catalog game; a game may be reviewed again (a replay). ${FIELDS} Omitted: \`rating\` null, \`contains_spoilers\` false, \`visibility\` PUBLIC. It shows in the feed at once (an item of kind \`review\`). 50 reviews per account in any 24 hours, then 429 \`rate_limited\` with \`retry_after\` (seconds until one is free); a refused review uses none. ${SHAPE}`,
    errors: ['invalid_request:fields_invalid'],
    status: 201,
    response: REVIEW_ANSWERS.review,
    example: { data: newReview },
  }),
  get: doc({
    summary: 'One review',
    description: `Anyone who may see it, as in the feed: PUBLIC to everyone, FOLLOWERS to the author’s followers, PRIVATE to the author alone, and nobody across a block either way. A review moderation removed shows to its author alone, with \`removed: true\`. Any other reader, an unknown id, or one that is not a UUID: 404 \`review_not_found\`. ${SHAPE}`,
    errors: NOT_FOUND,
    headers: {
      'Cache-Control':
        '`private, no-store` when the review is not PUBLIC or the reader is signed in; otherwise `private, no-cache`.',
    },
    response: REVIEW_ANSWERS.review,
    example: { data: review },
  }),
  update: doc({
    summary: 'Change your review',
    description: `Only the fields sent change (\`updated_at\` with them); a new \`game_id\` moves the review and its feed item to that game. ${FIELDS} Another account’s review, or none: 404 \`review_not_found\`. A review moderation removed cannot be changed: 403 \`forbidden\` reason \`removed\` (it can be deleted). An empty body changes nothing and answers the review.`,
    errors: [...NOT_FOUND, 'invalid_request:fields_invalid', 'forbidden:removed'],
    response: REVIEW_ANSWERS.review,
    example: { data: { ...review, rating: 90, contains_spoilers: true } },
  }),
  delete: doc({
    summary: 'Delete your review',
    description:
      'Deletes the review, removed by moderation or not, with its feed item and the comments on it. Another account’s review, or none: 404 `review_not_found`. Deleting gives no review back to the daily 50.',
    errors: NOT_FOUND,
    response: Deleted,
    example: { data: { id: REVIEW_ID, deleted: true } },
  }),
};
