// The reference's shapes of likes and comments (DECISIONS: Likes and comments; Cursor reads;
// shared/social/likes.ts, shared/comments/presenters.ts).
import { COMMENT_TARGETS } from '../../../shared/comments/rows.js';
import { LIKE_KINDS } from '../../../shared/social/like-rules.js';
import {
  answer,
  boolean,
  component,
  dateTime,
  integer,
  list,
  nullable,
  object,
  oneOf,
  string,
  uuid,
} from '../response-schemas.js';
import { Deleted } from './pages-and-images.js';
import { PersonSummary } from './social.js';

const cursor = {
  has_more: boolean(),
  next_before: nullable(dateTime('Pass it as `before` for the next page; null on the last.')),
};

export const LikeState = component(
  'LikeState',
  object(
    {
      liked: boolean('Whether you like it now.'),
      likes: integer('How many people like it now.'),
    },
    { description: 'Your like of a thing and its count.' },
  ),
);

export const Like = component(
  'Like',
  object(
    {
      kind: oneOf(LIKE_KINDS),
      id: string('The thing’s id: a uuid for reviews and journeys, the public id of a list or screenshot.'),
      username: nullable(string('Its author’s current username.')),
      likes: integer('How many people like it now.'),
      created_at: dateTime('When you liked it, to the microsecond: pass the last one back as `before`.'),
    },
    { description: 'A thing you like.' },
  ),
);

export const Comment = component(
  'Comment',
  object(
    {
      id: uuid(),
      on: object(
        {
          kind: oneOf(COMMENT_TARGETS),
          id: string('The person’s current username for PROFILE, else the thing’s id as clients name it.'),
        },
        { description: 'Where the comment is.' },
      ),
      author: PersonSummary,
      body: string('1 to 1,000 characters; line breaks kept.'),
      created_at: dateTime('To the microsecond: pass the last one back as `before`.'),
    },
    { description: 'A comment on a person’s profile or on one of their things.' },
  ),
);

export const LIKE_ANSWERS = {
  state: answer(LikeState),
  likes: object({ data: list(Like, 'Newest first.'), ...cursor }),
};

export const COMMENT_ANSWERS = {
  comment: answer(Comment),
  comments: object({ data: list(Comment, 'Newest first.'), ...cursor }),
  deleted: Deleted,
};
