// The reference's shapes of lists and their folders (DECISIONS: Lists; What the feed and the things carry;
// shared/lists/presenters.ts).
import { CONTENT_VISIBILITIES } from '../../../shared/content/content-fields.js';
import { LIST_MODES } from '../../../shared/people/lists.js';
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
} from '../response-schemas.js';
import { Game } from './catalog.js';

export const ListItem = component(
  'ListItem',
  object(
    {
      position: integer('1 for the first place; a ranked list’s rank.'),
      game_id: integer('The catalog game placed.'),
      tier: nullable(string('A tier list’s label for the game; null in other modes.')),
      game: nullable({ ...Game, description: 'Shaped like `/games`; null when the catalog no longer has the game.' }),
    },
    { description: 'One place of a list, in the list’s order.' },
  ),
);

export const GameList = component(
  'GameList',
  object(
    {
      id: string('The list’s public id.'),
      username: nullable(string('The author’s current username; null while they have none.')),
      title: string(),
      description: string(),
      visibility: oneOf(CONTENT_VISIBILITIES, 'Who may read it. Only the author sees this member.'),
      mode: oneOf(LIST_MODES, '`list` (unordered), `ranked` (the order is the ranking) or `tier` (a tier board).'),
      tiers: nullable(list(string(), 'A tier list’s labels, in board order; null in other modes.')),
      folder: nullable(string('The folder’s public id; null when the list is in none.')),
      size: integer('How many games it holds (the preview count `/profiles/{u}/lists` sorts by).'),
      items: list(ListItem, 'In the list’s order.'),
      likes: integer(),
      comments: integer('Comments on the list, but those moderation removed.'),
      awards: map(integer(), 'Awards given to it, `{award id: count}`; `{}` when none.'),
      removed: boolean('Removed by moderation: then shown to its author alone, who can delete it but not change it.'),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    { optional: ['visibility'], description: 'A list of catalog games.' },
  ),
);

export const ListFolder = component(
  'ListFolder',
  object(
    {
      id: string('The folder’s public id (a list’s `folder`).'),
      name: string(),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    { description: 'A folder of your lists.' },
  ),
);

export const LIST_ANSWERS = {
  list: answer(GameList),
  folder: answer(ListFolder),
};
