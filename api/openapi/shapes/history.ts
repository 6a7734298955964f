// The reference's shapes of a person's history (DECISIONS: History; Cursor reads; shared/history/presenters.ts).
import { ITEM_KIND } from '../../../shared/history/history-rules.js';
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
} from '../response-schemas.js';
import { coverUrl } from './catalog.js';
import { PersonSummary } from './social.js';

export const HistoryItem = component(
  'HistoryItem',
  object(
    {
      kind: oneOf(Object.values(ITEM_KIND)),
      viewed_at: dateTime('When you last viewed it, to the microsecond: pass the last one back as `before`.'),
      game: nullable(
        object(
          {
            id: integer('The catalog id.'),
            slug: string(),
            name: string(),
            cover_url: coverUrl(),
          },
          { description: 'The game (kind game); null for a profile.' },
        ),
      ),
      profile: nullable(PersonSummary),
    },
    {
      description: 'A game or a person you looked at; `profile` is null for a game and holds the person for a profile.',
    },
  ),
);

export const HISTORY_ANSWERS = {
  history: object({
    data: list(HistoryItem, 'Most recently viewed first.'),
    has_more: boolean(),
    next_before: nullable(dateTime('Pass it as `before` for the next page; null on the last.')),
  }),
  cleared: answer(object({ removed: integer('How many recorded views were removed, shown or not.') })),
};
