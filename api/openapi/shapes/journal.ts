// The journal's answers: play sessions and journeys (DECISIONS: Journal, What the feed and the things carry;
// shared/journal/presenters.ts).
import { CONTENT_VISIBILITIES } from '../../../shared/content/content-fields.js';
import {
  answer,
  boolean,
  component,
  dateTime,
  integer,
  list,
  map,
  nullable,
  object,
  oneOf,
  string,
  uuid,
} from '../response-schemas.js';
import { coverUrl, Game } from './catalog.js';
import { Deleted, Page } from './pages-and-images.js';

export const JournalSession = component(
  'JournalSession',
  object(
    {
      id: uuid(),
      game_id: integer('The catalog id.'),
      game: nullable(
        object(
          { slug: string(), name: string(), cover_url: coverUrl() },
          { description: 'Null when the catalog no longer has the game.' },
        ),
      ),
      started_at: dateTime(),
      ended_at: nullable(dateTime('Null while the session runs.')),
      minutes: nullable(integer('Whole minutes between start and end, rounded down; null while the session runs.')),
      live: boolean('The session runs: it has no end yet.'),
      note: string(),
      visibility: oneOf(CONTENT_VISIBILITIES),
      comments: integer('Comments on it.'),
      removed: boolean('Moderation removed it: only you see it, and it cannot be changed.'),
      created_at: dateTime('To the microsecond: pass the last one back as `before`.'),
      updated_at: dateTime(),
    },
    { description: 'A play session of your journal.' },
  ),
);

export const Journey = component(
  'Journey',
  object(
    {
      id: uuid(),
      game_id: integer('The catalog id.'),
      game: nullable({ ...Game, description: 'Shaped like `/games`; null when the catalog no longer has the game.' }),
      title: string(),
      started_at: nullable(dateTime('Null only on runs older than the journal’s routes.')),
      finished_at: nullable(dateTime('Null while the run goes on.')),
      visibility: oneOf(CONTENT_VISIBILITIES),
      sessions: integer('The sessions of its game that started within its times, as the reader may see them.'),
      minutes: integer('Those sessions’ minutes, summed (a running one counts none).'),
      likes: integer(),
      comments: integer(),
      awards: map(integer(), 'Award id to count; `{}` when none.'),
      removed: boolean('Moderation removed it: only its author sees it, and it cannot be changed.'),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    { description: 'A journey (a run through one game) and what it holds.' },
  ),
);

export const JOURNAL_ANSWERS = {
  session: answer(JournalSession),
  sessions: object({
    data: list(JournalSession, 'Newest first.'),
    has_more: boolean(),
    next_before: nullable(dateTime('Pass it as `before` for the next page; null on the last.')),
  }),
  journey: answer(Journey),
  journeys: answer(list(Journey, 'Newest first.'), { page: Page }),
  deleted: Deleted,
};
