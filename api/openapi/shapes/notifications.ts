// The reference's shapes of notifications (DECISIONS: Notifications; Cursor reads; the notifications
// contract; shared/notifications/presenters.ts).
import { NOTIFICATION_KINDS } from '../../../shared/notifications/rows.js';
import {
  anyObject,
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
  uri,
  uuid,
} from '../response-schemas.js';

export const Notification = component(
  'Notification',
  object(
    {
      id: uuid(),
      kind: oneOf(NOTIFICATION_KINDS),
      actor: nullable(
        object(
          {
            id: uuid('The person’s account id.'),
            username: nullable(string('Null for an account that has not taken a name.')),
            display_name: string('Empty when unset.'),
            avatar_url: nullable(uri()),
          },
          { description: 'Who did it; null when the service did (a moderation decision, an infraction).' },
        ),
      ),
      subject: nullable(
        object(
          {
            kind: oneOf(['REVIEW', 'LIST', 'SCREENSHOT', 'DIARY', 'JOURNEY', 'PROFILE', 'ARCADE_GAME']),
            id: string(
              'As clients name it: a review’s, session’s or journey’s uuid, a list’s or screenshot’s public id, a profile owner’s username when it was written, an Arcade game’s app id.',
            ),
          },
          { description: 'What it is about; null for follows (the actor is the person).' },
        ),
      ),
      data: anyObject(
        'By kind: like `{ count }`; comment `{ comment_id, body }` (body cut to 140 characters); award `{ award, award_name }`; arcade_review `{ target, decision, ... }` as the decision has them (a release’s or store page’s `version`, `reasons` and `note`; a game action’s `reason`); infraction `{ infraction_id, reason, expires_at }`; the follow kinds `{}`.',
      ),
      created_at: dateTime('To the microsecond: pass the last one back as `before`.'),
      read_at: nullable(dateTime('When it was marked read; null while unread.')),
    },
    { description: 'Something that happened to you.' },
  ),
);

export const NOTIFICATION_ANSWERS = {
  list: object({
    data: list(Notification, 'Newest first.'),
    has_more: boolean(),
    next_before: nullable(dateTime('Pass it as `before` for the next page; null on the last.')),
  }),
  unread: answer(object({ unread: integer('How many are unread.') })),
  marked: answer(object({ marked: integer('How many went from unread to read.') })),
};
