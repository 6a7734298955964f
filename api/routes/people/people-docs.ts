// The reference's words for a person's pages, standing, search, the public index and discovery (spec:
// People; docs/api-notes.md: People pages, Profile social, Standing, Stats, Year, Connections, People search, Public
// index, Discovery, Visitors' layout). Collections (activity, lists, journeys, screenshots) are in
// people-collection-docs.ts.
import { coverUrl } from '../../../shared/content/game-covers.js';
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { LAYOUT_EXAMPLE, LAYOUT_MEDIA_EXAMPLE } from '../profile/layout-docs.js';
import { PEOPLE_ANSWERS } from '../../openapi/shapes/people.js';

const MEDIA = 'https://jogatina.example/media';
const ACCOUNT_ID = '3f2a8c41-7b9d-4e6a-9c15-2d8e0f4b6a71';

/** The person of the path: a name nobody holds (or held in the last 30 days), or hidden by a block either way. */
export const NO_SUCH_PERSON: ErrorRef[] = ['not_found'];
/** Said once for every route about the person of the path. */
export const PERSON_RULE =
  '`{username}` is the current name or an alias of the last 30 days. A name nobody holds, and a person who blocks the reader or whom the reader blocks, are the same 404.';
const LIBRARY_RULE =
  'The library shows to its owner, to anyone when PUBLIC, to followers when FOLLOWERS and to no one else when PRIVATE.';

const person = {
  username: 'bruno_lima',
  display_name: 'Bruno Lima',
  avatar_url: `${MEDIA}/avatars/8e4b1c2d-5f6a-4b7c-9d0e-1f2a3b4c5d6e.avif`,
};

const rule = (...parts: string[]) => parts.join('\n\n');

export const PEOPLE_DOCS = {
  profile: doc({
    summary: 'A person’s public profile',
    description: rule(
      PERSON_RULE,
      'The display fields, pictures, `library_visibility`, when the account was created, and `private` (library visibility not PUBLIC: following makes a request). `username` is the current name, also when asked by an alias; `aliases` are the former names of the last 30 days, newest first, each of which a lookup still accepts (a name whose 30 days ran out leaves the list and finds nobody). Read with a session, someone else’s profile goes into your history (`GET /history`) unless `record_history` is off; a key’s read never does.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.profile,
    example: {
      data: {
        username: 'ana_souza',
        display_name: 'Ana Souza',
        bio: 'Jogo de tudo um pouco, mas volto sempre aos metroidvanias.',
        pronouns: 'ela/dela',
        thought: 'Zerando Hollow Knight pela terceira vez.',
        video_username: 'anasouza',
        photo_username: 'ana.souza',
        microblog_username: 'anasouza',
        library_visibility: 'FOLLOWERS',
        avatar_url: `${MEDIA}/avatars/0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e.avif`,
        banner_url: null,
        aliases: ['ana_s'],
        created_at: '2025-03-14T12:00:41.208Z',
        private: true,
      },
    },
  }),
  social: doc({
    summary: 'Relationships and the profile conversation',
    description: rule(
      PERSON_RULE,
      '`relationship` is null for anonymous readers; `requested` is the reader’s unanswered follow request. `conversation` holds the newest 20 profile comments and their `total`, without comments moderation removed, authors blocked either way by the reader or blocked by the owner, and suspended authors (staff and the author still see those). A private account’s conversation is null for readers who do not follow it. `wallet` is the reader’s own balance and level, never the person’s; null for anonymous readers.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.social,
    example: {
      data: {
        username: 'ana_souza',
        followers: 128,
        following: 75,
        relationship: { self: false, following: true, requested: false, followed_by: true },
        conversation: {
          total: 1,
          comments: [
            {
              id: 'c4e8a2f1-6b3d-4a9e-8c7f-0d1e2f3a4b5c',
              author: person,
              body: 'Bora jogar Celeste no fim de semana?',
              created_at: '2026-11-20T22:31:07.455Z',
            },
          ],
        },
        wallet: { balance: 340, level: 3 },
      },
    },
  }),
  summary: doc({
    summary: 'Counts for a profile header',
    description: rule(
      PERSON_RULE,
      `Only what the reader may see counts. The library counts (library, played, playing, backlog, wishlist) follow the library's visibility and are 0 when it is hidden. ${LIBRARY_RULE} \`played\` is status COMPLETED; \`playing\` and \`backlog\` are the flags; \`wishlist\` the flag or status WISHLIST; a replayed game counts in played and playing; every entry counts in \`library\`.`,
      'Lists, reviews, journeys, screenshots and `diary` (closed play sessions) count by each item’s own visibility (PUBLIC anyone, FOLLOWERS followers and the owner, PRIVATE the owner); captures moderation removed count nowhere. `follows_viewer` is false signed out and on one’s own profile.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.summary,
    example: {
      data: {
        library: 214,
        played: 96,
        playing: 3,
        backlog: 41,
        wishlist: 27,
        lists: 8,
        reviews: 35,
        diary: 412,
        journeys: 6,
        screenshots: 153,
        screenshot_games: 22,
        screenshot_spoilers: 9,
        followers: 128,
        following: 75,
        viewer_follows: true,
        follows_viewer: false,
      },
    },
  }),
  library: doc({
    summary: 'A person’s library',
    description: rule(
      PERSON_RULE,
      `${LIBRARY_RULE} A hidden library is an empty page, not an error.`,
      'Filters combine; `wishlist` matches the flag or status WISHLIST. `sort=updated` puts the latest change first; `rating` the highest first, unrated last. `games=1` adds `games`, keyed by game id: `{ name, cover, slug }` (`cover` the cover image’s URL, null for a game without one; the game null for a game the catalog no longer has). `profile.username` is the current name.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.library,
    example: {
      data: [
        {
          game_id: 1942,
          status: 'COMPLETED',
          playing: true,
          backlog: false,
          wishlist: false,
          liked: true,
          rating: 95,
          platform_id: 6,
          updated_at: '2026-11-19T20:11:45.902Z',
          created_at: '2024-02-03T15:20:00.000Z',
        },
      ],
      page: { number: 1, size: 100, total_items: 1, total_pages: 1, has_more: false },
      profile: { username: 'ana_souza' },
      games: { '1942': { name: 'Hollow Knight', cover: coverUrl('co93cr'), slug: 'hollow-knight' } },
    },
  }),
  connections: doc({
    summary: 'A person’s followers or following',
    description: rule(
      PERSON_RULE,
      'Newest first; `since` carries microseconds, and passing the last one back as `before` continues without skipping anyone (`next_before`, null on the last page). People who block the reader, or whom the reader blocks, are left out. A private account’s connections are an empty page to readers who do not follow it.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.connections,
    example: {
      data: [{ ...person, since: '2026-11-02T18:04:11.482913Z' }],
      page: { size: 20, has_more: true },
      next_before: '2026-11-02T18:04:11.482913Z',
    },
  }),
  layout: doc({
    summary: 'A person’s published layout',
    description: rule(
      PERSON_RULE,
      'The published copy, or the default layout (`customized` false); never the draft, even for the owner. A private account answers the default to readers who do not follow it. `media` maps only the owner’s images the published copy names; a reference to anyone else’s image, or a missing one, draws nothing.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.layout,
    example: { data: { layout: LAYOUT_EXAMPLE, customized: true, media: LAYOUT_MEDIA_EXAMPLE } },
  }),
  stats: doc({
    summary: 'A person’s play statistics',
    description: rule(
      PERSON_RULE,
      'Built from the closed play sessions the reader may see, each by its own visibility; a day with several sessions counts once in `days`. `days_of_week` goes from 1 (Monday) to 7, in UTC; `most_played` holds up to 10 games and `taste` up to 1000, most minutes first. `rating_distribution` has buckets of 10 points (100 joins the 90s). `copy_platforms` and `rating_distribution` come from the library: empty and all zero when the reader does not see it.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.stats,
    example: {
      data: {
        username: 'ana_souza',
        totals: { sessions: 412, minutes: 38250, days: 301, games: 57 },
        per_year: [
          { year: 2025, sessions: 198, minutes: 17400 },
          { year: 2026, sessions: 214, minutes: 20850 },
        ],
        days_of_week: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, minutes: day < 6 ? 4200 : 8625 })),
        most_played: [{ game_id: 1942, minutes: 6120, sessions: 58 }],
        copy_platforms: [{ platform_id: 6, copies: 31 }],
        rating_distribution: Array.from({ length: 10 }, (_, i) => ({ from: i * 10, count: i < 5 ? 0 : i * 3 })),
        taste: [{ game_id: 1942, minutes: 6120 }],
      },
    },
  }),
  year: doc({
    summary: 'A person’s year',
    description: rule(
      PERSON_RULE,
      'A calendar year in UTC, from 2000 through the current year (a later one is 400 `out_of_range`). Each list holds the year’s items the reader may see, oldest first: closed sessions by their start, the rest by creation; removed captures never. Library rows show only to readers who see the library: `added` (added in the year) and `played` (finished in it, a session started in it that the reader may see by its own visibility and that moderation did not remove, added in it as PLAYING, COMPLETED, DROPPED or ON_HOLD, or still marked playing and last changed in it).',
    ),
    errors: ['invalid_request:out_of_range', ...NO_SUCH_PERSON],
    response: PEOPLE_ANSWERS.year,
    example: {
      data: {
        username: 'ana_souza',
        year: 2026,
        sessions: [
          {
            id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
            game_id: 1942,
            started_at: '2026-03-07T21:00:00.000Z',
            minutes: 95,
          },
        ],
        reviews: [
          {
            id: '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
            game_id: 1942,
            rating: 95,
            created_at: '2026-03-09T12:15:40.000Z',
          },
        ],
        library: [{ game_id: 1942, status: 'COMPLETED', playing: false, added: false, played: true }],
        lists: [
          { id: 'mv7q2k9x', title: 'Metroidvanias favoritos', mode: 'ranked', created_at: '2026-04-01T10:00:00.000Z' },
        ],
        screenshots: [{ id: 'k3x9q2vz', game_id: 1942, created_at: '2026-03-07T22:14:03.000Z' }],
        journeys: [
          {
            id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
            game_id: 1942,
            title: 'Caminho da Dor',
            created_at: '2026-03-01T18:30:00.000Z',
          },
        ],
        totals: { sessions: 1, minutes: 95, reviews: 1, added: 0, played: 1, lists: 1, screenshots: 1, journeys: 1 },
      },
    },
  }),
  minerals: doc({
    summary: 'A person’s mineral balance and level',
    description: rule(PERSON_RULE, 'Someone who never earned any reads 0 and level 1. No transfer ledger.'),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.minerals,
    example: { data: { username: 'ana_souza', balance: 1250, level: 5 } },
  }),
  verification: doc({
    summary: 'Who vouched for a person’s badge',
    description: rule(
      `${PERSON_RULE} \`{username}\` may also be an account id.`,
      '`vouched_by` is a username, or null when that account is gone. `data` is null for someone never verified.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.verification,
    example: { data: { vouched_by: 'equipe_jogatina', verified_at: '2026-06-12T16:40:00.000Z' } },
  }),
  levels: doc({
    summary: 'Levels of several accounts',
    description:
      '`ids`: 1 to 100 distinct account ids, comma-separated. Answers in the order asked; unknown ids and accounts without a username are left out. `level` is 1 for someone who never earned minerals.',
    response: PEOPLE_ANSWERS.levels,
    example: { data: [{ id: ACCOUNT_ID, username: 'ana_souza', level: 5, verified: true }] },
  }),
  search: doc({
    summary: 'Find people',
    description:
      '`q` matches the username or display name without case or accents; `verified=1` keeps verified accounts. `sort=relevance` (default) puts the exact username first, then names starting with `q`, then the rest (newest first without `q`); `newest`; `name`. 24 a page, pages 1 to 100. Accounts without a username and people blocked either way never show; suspended and banned accounts are left out of rows and total, except for moderators, admins and the account itself.',
    response: PEOPLE_ANSWERS.search,
    example: {
      data: [{ ...person, verified: false, level: 2 }],
      page: { number: 1, size: 24, total_items: 1, total_pages: 1, has_more: false },
    },
  }),
  index: doc({
    summary: 'The public index, for sitemaps',
    description:
      'The newest 1000 of each kind that anyone may see: PUBLIC reviews, lists and screenshots (not removed) and entries of PUBLIC libraries, of people with a username who are not suspended. The same for every caller.',
    headers: { 'Cache-Control': '`public, max-age=300`: shared caches may keep it five minutes.' },
    response: PEOPLE_ANSWERS.index,
    example: {
      data: {
        reviews: [
          {
            id: '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
            username: 'ana_souza',
            game_id: 1942,
            updated_at: '2026-03-09T12:15:40.000Z',
          },
        ],
        entries: [{ username: 'ana_souza', game_id: 1942, updated_at: '2026-11-19T20:11:45.902Z' }],
        lists: [{ id: 'mv7q2k9x', username: 'ana_souza', updated_at: '2026-04-02T09:12:00.000Z' }],
        screenshots: [{ id: 'k3x9q2vz', username: 'ana_souza', created_at: '2026-03-07T22:14:03.000Z' }],
      },
    },
  }),
  discovery: doc({
    summary: 'People to discover',
    description:
      'Up to 20 each. `friends_playing`: people you follow with a session you may see (PUBLIC or FOLLOWERS, not removed) running or started in the last 14 days (`games`: up to 3 game ids, from those sessions). `similar_taste`: people with the most games in common that both liked or rated 80 and up, from libraries you may see (`shared_games`). Blocked either way, suspended accounts and you never appear. Anonymous readers get two empty lists.',
    headers: { 'Cache-Control': '`private, no-store`.' },
    response: PEOPLE_ANSWERS.discovery,
    example: {
      data: {
        friends_playing: [{ ...person, level: 2, games: [1942, 7346] }],
        similar_taste: [
          {
            username: 'carla_mendes',
            display_name: 'Carla Mendes',
            avatar_url: null,
            level: 4,
            shared_games: 12,
          },
        ],
      },
    },
  }),
};
