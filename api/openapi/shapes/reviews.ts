// The reference's shapes of reviews (DECISIONS: Reviews; What the feed and the things carry).
import { CONTENT_VISIBILITIES } from '../../../shared/content/content-fields.js';
import {
  answer,
  boolean,
  component,
  dateTime,
  integer,
  map,
  nullable,
  object,
  oneOf,
  string,
  uuid,
} from '../response-schemas.js';
import { coverUrl } from './catalog.js';

export const Review = component(
  'Review',
  object(
    {
      id: uuid(),
      username: nullable(string('The author’s current username; null while they have none.')),
      game_id: integer('The catalog game reviewed.'),
      game: nullable(
        object(
          { slug: string(), name: string(), cover_url: coverUrl() },
          { description: 'The game as the catalog has it; null when the catalog no longer has it.' },
        ),
      ),
      body: string('1 to 10,000 characters; line breaks kept.'),
      rating: nullable(integer('0 to 100; null for none.')),
      contains_spoilers: boolean(),
      visibility: oneOf(CONTENT_VISIBILITIES, 'Who may read it: everyone, the author’s followers, or the author.'),
      likes: integer(),
      comments: integer('Comments on the review, but those moderation removed.'),
      awards: map(integer(), 'Awards given to it, `{award id: count}`; `{}` when none.'),
      removed: boolean('Removed by moderation: then shown to its author alone, who can delete it but not change it.'),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    { description: 'A review of a catalog game.' },
  ),
);

export const REVIEW_ANSWERS = {
  review: answer(Review),
};
