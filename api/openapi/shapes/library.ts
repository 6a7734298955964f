// The reference's shapes of the owner's library (DECISIONS: Library): entries as their owner sees them,
// owned copies, an import's counts.
import { LIBRARY_STATUSES } from '../../../shared/people/library.js';
import {
  answer,
  boolean,
  component,
  constant,
  dateTime,
  integer,
  list,
  map,
  nullable,
  object,
  oneOf,
  string,
} from '../response-schemas.js';
import { coverUrl } from './catalog.js';
import { Page } from './pages-and-images.js';
import { Copy } from './service.js';

export const OwnLibraryEntry = component(
  'OwnLibraryEntry',
  object(
    {
      game_id: integer(),
      game: nullable(
        object(
          { slug: string(), name: string(), cover_url: coverUrl() },
          { description: 'The game as the catalog has it; null when the catalog no longer has it.' },
        ),
      ),
      status: nullable(oneOf(LIBRARY_STATUSES)),
      playing: boolean(),
      backlog: boolean(),
      wishlist: boolean(),
      liked: boolean(),
      ignored: boolean('Shown only to the owner: an ignored entry is in no other read and makes no feed item.'),
      rating: nullable(integer('0 to 100.')),
      platform_id: nullable(integer('One of the game’s platforms.')),
      finished_at: nullable(dateTime()),
      created_at: dateTime('When the entry was first added; a PUT that replaces it keeps it.'),
      updated_at: dateTime(),
    },
    { description: 'A library entry as its owner sees it.' },
  ),
);

export const LIBRARY_ANSWERS = {
  library: object(
    {
      data: list(OwnLibraryEntry),
      page: Page,
      games: map(
        nullable(object({ name: string(), cover: coverUrl(), slug: string() })),
        'With `games=1`: by game id; null for a game the catalog no longer has.',
      ),
    },
    { optional: ['games'] },
  ),
  entry: answer(OwnLibraryEntry),
  entryDeleted: answer(object({ game_id: integer(), deleted: constant(true) })),
  imported: answer(
    object({
      created: integer('Entries that were not in the library.'),
      updated: integer('Entries that replaced one already there.'),
    }),
  ),
  copy: answer(Copy),
};
