// The catalog's answers (spec: Catalog game; shared/catalog/presenters.ts, companies.ts, search-counts.ts).
import {
  answer,
  boolean,
  component,
  integer,
  list,
  nullable,
  number,
  object,
  oneOf,
  string,
  uri,
} from '../response-schemas.js';
import { paged } from './pages-and-images.js';

/**
 * A game's cover, as every answer that shows a game carries it (shared/content/game-covers.ts): `cover_url` of
 * the catalog's rows and of a game's card, `cover` of the `games=1` maps.
 */
export const coverUrl = () =>
  nullable(
    uri(
      'The cover image: IGDB’s image host at size t_cover_big (264 x 374, JPEG), `https://images.igdb.com/igdb/image/upload/t_cover_big/<image id>.jpg`; null for a game without a cover.',
    ),
  );

export const Game = component(
  'Game',
  object(
    {
      id: integer(),
      slug: string(),
      name: string(),
      release_year: nullable(integer()),
      type: nullable(
        integer(
          'Game type id: 0 main game, 1 DLC, 2 expansion, 3 bundle, 4 standalone expansion, 8 remake, 9 remaster, 10 expanded edition, 11 port.',
        ),
      ),
      rating: nullable(number('0 to 100, one decimal.')),
      genres: list(string(), 'Genre names.'),
      demo_available: boolean(),
      cover_url: coverUrl(),
    },
    { description: 'spec: Catalog game (search item); `cover_url` is ours.' },
  ),
);

export const Company = component(
  'Company',
  object({
    id: integer(),
    slug: string(),
    name: string(),
    status: nullable(oneOf(['active', 'defunct', 'merged', 'renamed'])),
    founded_year: nullable(integer()),
    published_games: integer(),
    developed_games: integer(),
  }),
);

export const CATALOG_ANSWERS = {
  search: paged(Game),
  game: answer(Game),
  ratings: answer(
    list(
      object({
        id: integer(),
        rating: nullable(number('The service’s average, 0 to 100.')),
        rating_count: integer(),
        weighted_rating: nullable(number('Pulled towards the site mean by vote count, for ranking.')),
      }),
      'The known games, in the order asked.',
    ),
  ),
  stats: answer(
    list(
      object({
        id: integer(),
        library: integer(),
        playing: integer(),
        finished: integer(),
        wishlisted: integer(),
        favorited: integer(),
        reviewing: integer(),
        journeys: integer(),
        sessions: integer(),
        popularity: integer(),
        trending: integer('Activity of the last 7 days.'),
      }),
      'The known games, in the order asked.',
    ),
  ),
  companies: paged(Company),
  counts: answer(
    object({
      q: nullable(string()),
      cap: integer('The most any tab counts.'),
      games: integer(),
      reviews: integer(),
      lists: integer(),
      tier_lists: integer(),
      awards: integer(),
      people: integer(),
      companies: integer(),
    }),
  ),
};
