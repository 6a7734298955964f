// The reference's words for the game catalog and the search tabs (spec: Catalog, Search query parameters;
// docs/api-notes.md: Game search, Search counts, Catalog stats, Game shape, Companies).
import { coverUrl } from '../../../shared/content/game-covers.js';
import { doc } from '../../openapi/route-facts.js';
import { CATALOG_ANSWERS } from '../../openapi/shapes/catalog.js';

const game = {
  id: 1942,
  slug: 'the-witcher-3-wild-hunt',
  name: 'The Witcher 3: Wild Hunt',
  release_year: 2015,
  type: 0,
  rating: 91.4,
  genres: ['Role-playing (RPG)', 'Adventure'],
  demo_available: false,
  cover_url: coverUrl('co1wyy'),
};
const remaster = {
  id: 26758,
  slug: 'portal-companion-collection',
  name: 'Portal: Companion Collection',
  release_year: 2022,
  type: 9,
  rating: null,
  genres: ['Puzzle', 'Platform'],
  demo_available: false,
  // A game without a cover.
  cover_url: null,
};
const PUBLIC_CACHE = { 'Cache-Control': '`public, max-age=60`' };
const IDS =
  '`ids`: 1 to 200 distinct game ids, comma-separated. Answers the known ones, in the order asked; unknown ids are left out.';

export const CATALOG_DOCS = {
  search: doc({
    summary: 'Search and browse games',
    description: [
      '24 a page, pages 1 to 100; `total_items` counts every match and `total_pages` stops at 100 (while a web process reads its copy of the catalog, the database answers and counts up to 2,500). Every known parameter is checked (`yearFrom` after `yearTo`, `hoursMin` above `hoursMax` too); unknown ones are ignored.',
      'Browsing (no `q`) defaults `types` to 0, 8, 9 and leaves out lesser-known games (no popularity, ratings or hype) unless `obscure=1`; with `q` every type and game counts. `q` matches the name without case or accents: the name itself, then names starting with it, then a word starting with it, then anywhere, each group in the chosen sort (popular by default); an explicit `sort` orders everything. When nothing contains the text, names at least 30% alike answer, most alike first.',
      'Own-library filters (`played`, `library`, `unplayed`, `wishlist`, `hideIgnored`) need a session or a key that also holds `library.read`: without a caller 401 `unauthorized`, a key without it 403 `insufficient_scope` with `scope` `library.read`. Their answers are `Cache-Control: private, no-store`; all others `public, max-age=60`.',
    ].join('\n\n'),
    errors: ['unauthorized'],
    headers: { 'Cache-Control': '`public, max-age=60`, or `private, no-store` with an own-library filter' },
    response: CATALOG_ANSWERS.search,
    example: {
      data: [game, remaster],
      page: { number: 1, size: 24, total_items: 2, total_pages: 1, has_more: false },
    },
  }),
  ratings: doc({
    summary: 'Ratings of several games',
    description: `${IDS} \`rating\` is the service’s average (0 to 100, one decimal) of \`rating_count\` ratings; \`weighted_rating\` pulls it towards the site mean by vote count, for ranking. Both null for an unrated game.`,
    headers: PUBLIC_CACHE,
    response: CATALOG_ANSWERS.ratings,
    example: {
      data: [
        { id: 1942, rating: 91.4, rating_count: 318, weighted_rating: 90.2 },
        { id: 26758, rating: null, rating_count: 0, weighted_rating: null },
      ],
    },
  }),
  stats: doc({
    summary: 'Activity counts of several games',
    description: `${IDS} Distinct people with the game in their library, playing, finished, wishlisted, favorited, reviewing it, on journeys and logging sessions; plus \`popularity\` and \`trending\` (activity of the last 7 days). Recomputed every 5 minutes; a game without activity reads zeros.`,
    headers: PUBLIC_CACHE,
    response: CATALOG_ANSWERS.stats,
    example: {
      data: [
        {
          id: 1942,
          library: 1204,
          playing: 87,
          finished: 640,
          wishlisted: 153,
          favorited: 402,
          reviewing: 96,
          journeys: 41,
          sessions: 233,
          popularity: 58213,
          trending: 312,
        },
      ],
    },
  }),
  game: doc({
    summary: 'One game',
    description:
      'The same shape as a search item. An unknown slug is 404. Read with a session, it goes into your history (`GET /history`) unless `record_history` is off; a key’s read never does.',
    errors: ['not_found'],
    headers: PUBLIC_CACHE,
    response: CATALOG_ANSWERS.game,
    example: { data: game },
  }),
  companies: doc({
    summary: 'Search companies',
    description:
      '24 a page, pages 1 to 100. `q` matches names without case or accents; `role` keeps companies with at least one game in that role; `status=active` keeps active ones. `relevance` (the default) ranks name matches like game search and otherwise equals `catalog` (most games first); `oldest` and `newest` go by founding date, unknown last. `status` is active, defunct, merged, renamed or null.',
    headers: PUBLIC_CACHE,
    response: CATALOG_ANSWERS.companies,
    example: {
      data: [
        {
          id: 908,
          slug: 'cd-projekt-red',
          name: 'CD Projekt RED',
          status: 'active',
          founded_year: 2002,
          published_games: 4,
          developed_games: 11,
        },
      ],
      page: { number: 1, size: 24, total_items: 1, total_pages: 1, has_more: false },
    },
  }),
  counts: doc({
    summary: 'Result counts of each search tab',
    description:
      'Each tab counts at most `cap` (1000). Only what anyone may see counts (public reviews and lists, public reviews, lists, journeys and screenshots with at least one award for `awards`, people with a username who are not suspended), so one answer serves every reader: kept 60 seconds per `q`. `q` (up to 80) matches game and company names, review text, list and journey titles, screenshot descriptions, usernames and display names without case or accents; without it, the visible totals.',
    headers: PUBLIC_CACHE,
    response: CATALOG_ANSWERS.counts,
    example: {
      data: {
        q: 'witcher',
        cap: 1000,
        games: 14,
        reviews: 37,
        lists: 9,
        tier_lists: 2,
        awards: 5,
        people: 1,
        companies: 0,
      },
    },
  }),
};
