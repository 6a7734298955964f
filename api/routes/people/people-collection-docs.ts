// The reference's words for the activity feeds and a person's collections: lists, list folders, journeys
// and screenshots (spec: People; docs/api-notes.md: Activity, Lists, Journeys, Screenshots).
import { coverUrl } from '../../../shared/content/game-covers.js';
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { NO_SUCH_PERSON, PERSON_RULE } from './people-docs.js';
import { PEOPLE_ANSWERS } from '../../openapi/shapes/people.js';

const MEDIA = 'https://jogatina.example/media';
const GAME = {
  id: 1942,
  slug: 'hollow-knight',
  name: 'Hollow Knight',
  release_year: 2017,
  type: 0,
  rating: 91.4,
  genres: ['Platform', 'Adventure', 'Indie'],
  demo_available: false,
  cover_url: coverUrl('co93cr'),
};

const rule = (...parts: string[]) => parts.join('\n\n');

/** `offset` pages one kind only: without exactly one in `kinds` it is 400 (shared/people/activity.ts). */
const OFFSET_ONE_KIND: ErrorRef = 'invalid_request:not_allowed';

const FILTERS =
  '`game` is a slug (one the catalog does not know matches nothing); `kinds` any of entry, session, review, list, screenshot, journey; `q` matches review text, list or journey titles, capture descriptions and game names; `rating` (0 to 100) keeps reviews and entries rated at least that; `spoilers=safe` leaves spoiler reviews and captures out, `spoilers=spoilers` keeps only those. `order` new (default) or old. Pass `next_before` (the last item’s `created_at`, to the microsecond) back as `before` to continue; `offset` pages only with exactly one kind in `kinds` (400 `not_allowed` otherwise).';
const ITEM_RULE =
  'Each item shows by its own visibility (library entries by the author’s library visibility; an ignored game’s entry nowhere), never across a block; what moderation removed shows to nobody. Items carry `id`, `kind`, `username`, `game_id`, `created_at`, their kind’s fields and the id of their thing (`review_id`, `session_id`, `journey_id`, `list_id`, `screenshot_id`); likeable things (reviews, lists, journeys, captures) carry `likes`, `comments` and `awards`. A library entry’s item is written when the entry is created or its status or rating changes, and changes within 10 minutes of it move that item to the latest instead of adding one; captures carry `imageUrl` and `thumbnailUrl` (WebP up to 640 px across, or null: then use `imageUrl`) with its size.';

/** Newest first, as the feed answers. */
const at = (n: number) => `2026-11-21T${19 - n}:04:11.48291${n}Z`;
const base = (n: number, kind: string) => ({
  id: `0b6f3c2a-9d4e-4f1a-8c7b-5e2d1a0f9c8${n}`,
  kind,
  username: 'ana_souza',
  game_id: 1942,
  created_at: at(n),
});
const reactions = (likes: number, comments: number, awards: Record<string, number> = {}) => ({
  likes,
  comments,
  awards,
});
const REVIEW = {
  ...base(1, 'review'),
  review_id: '5d2e8a41-7c3b-4f60-9e1d-2b8c6f4a0e73',
  body: 'O mapa é um quebra-cabeça em si.',
  rating: 95,
  contains_spoilers: false,
  ...reactions(12, 3, { gold: 1 }),
};
const SESSION = { ...base(2, 'session'), session_id: '8f1c4b27-3e9a-4d58-a6b0-7c2e5d9f1a46', minutes: 95, live: false };
const ACTIVITY_ITEMS = [
  REVIEW,
  SESSION,
  { ...base(3, 'entry'), status: 'COMPLETED', rating: 95 },
  {
    ...base(4, 'list'),
    game_id: null,
    list_id: 'mv7q2k9x',
    title: 'Metroidvanias favoritos',
    ...reactions(4, 0),
  },
  {
    ...base(5, 'journey'),
    journey_id: '2a7d9e15-6b4c-4f3e-8d21-9c0b7a5e3f68',
    title: 'Caminho da Dor',
    ...reactions(2, 1),
  },
  {
    ...base(6, 'screenshot'),
    screenshot_id: 'k3x9q2vz',
    contains_spoilers: true,
    ...reactions(7, 0),
    imageUrl: `${MEDIA}/screenshots/k3x9q2vz.avif`,
    thumbnailUrl: `${MEDIA}/screenshots/k3x9q2vz-thumb.webp`,
    thumbnailWidth: 640,
    thumbnailHeight: 360,
  },
];

const capture = {
  id: 'k3x9q2vz',
  game_id: 1942,
  description: 'A vista da Cidade das Lágrimas.',
  contains_spoilers: false,
  sensitive: false,
  image_url: `${MEDIA}/screenshots/k3x9q2vz.avif`,
  image_width: 1920,
  image_height: 1080,
  thumbnail_url: `${MEDIA}/screenshots/k3x9q2vz-thumb.webp`,
  thumbnail_width: 640,
  thumbnail_height: 360,
  likes: 3,
  comments: 1,
  awards: {},
  created_at: '2026-03-07T22:14:03.000Z',
  visibility: 'PUBLIC',
};

export const PEOPLE_COLLECTION_DOCS = {
  activity: doc({
    summary: 'The activity feed',
    description: rule(
      'Everyone’s visible activity, or only that of the people named in `profile` and `profiles` (up to 50 names, current or 30-day aliases; an unknown name, or someone blocked either way, is 404).',
      FILTERS,
      ITEM_RULE,
      'The shared feed leaves suspended authors out (but for the reader’s own items); a feed of named people shows their items as their other pages do.',
    ),
    errors: [...NO_SUCH_PERSON, OFFSET_ONE_KIND],
    response: PEOPLE_ANSWERS.activity,
    example: { data: ACTIVITY_ITEMS, has_more: true, next_before: at(6) },
  }),
  reviews: doc({
    summary: 'A person’s reviews and play sessions',
    description: rule(
      PERSON_RULE,
      'The activity feed of one author, kinds review and session only (`kinds` narrows within them; asking only for other kinds finds nothing).',
      FILTERS,
      ITEM_RULE,
    ),
    errors: [...NO_SUCH_PERSON, OFFSET_ONE_KIND],
    response: PEOPLE_ANSWERS.activity,
    example: { data: [REVIEW, SESSION], has_more: false, next_before: null },
  }),
  game: doc({
    summary: 'A game’s activity and session totals',
    description: rule(
      'The activity feed about one game, with the same filters (`game` aside). An unknown slug is 404.',
      FILTERS,
      ITEM_RULE,
      'Suspended authors are left out (but for the reader’s own items). `totals` counts the closed sessions of the game the reader may see: sessions, minutes and `days`, the distinct UTC calendar days with a session (a session across midnight counts every day it covers, up to its end exclusive; overlaps and repeats count once). A running session is in none.',
    ),
    errors: ['not_found', OFFSET_ONE_KIND],
    response: PEOPLE_ANSWERS.gameActivity,
    example: {
      // Everything in a game's feed is about that game, lists included.
      data: ACTIVITY_ITEMS.map((item) => ({ ...item, game_id: 1942 })),
      has_more: true,
      next_before: at(6),
      totals: { sessions: 1840, minutes: 171300, days: 1215 },
    },
  }),
  lists: doc({
    summary: 'A person’s lists',
    description: rule(
      PERSON_RULE,
      'The lists the reader may see by each list’s own visibility (PUBLIC anyone, FOLLOWERS followers and the owner, PRIVATE the owner); `visibility` and `mode` narrow within that, and only the owner sees each list’s `visibility`. `sort`: recent (default, latest update first), oldest, name (without case or accents), likes, size (preview count: a tier list’s ranked games); ties go to the latest update.',
      '`offset` pages any order; `before` (lists updated before that instant) is a cursor for `recent` only, and 400 with another sort; `before` with an `offset` above 0 is 400 `not_allowed` (field `offset`). `q` matches title or description. `folder` is a folder id, or `NONE` for lists in no folder (different from leaving it out); an unknown folder is an empty page.',
      '`page` is the spec’s page object in pages of `limit` lists: `number` is the page `offset` falls in (offset ÷ limit + 1; 1 with `before`), `size` is `limit`, `total_items` counts the lists matching every filter (`before` included), `total_pages` is total_items ÷ limit rounded up, and `has_more` is false on the last page or once the next offset would pass 10000.',
    ),
    errors: [...NO_SUCH_PERSON, 'invalid_request', 'invalid_request:not_allowed'],
    response: PEOPLE_ANSWERS.lists,
    example: {
      data: [
        {
          id: 'mv7q2k9x',
          title: 'Metroidvanias favoritos',
          description: 'Do melhor para o ótimo.',
          visibility: 'PUBLIC',
          mode: 'ranked',
          likes: 14,
          comments: 2,
          awards: {},
          size: 10,
          folder: 'rpg-e-afins',
          created_at: '2026-04-01T10:00:00.000Z',
          updated_at: '2026-04-02T09:12:00.000Z',
        },
      ],
      page: { number: 1, size: 24, total_items: 1, total_pages: 1, has_more: false },
    },
  }),
  folders: doc({
    summary: 'A person’s list folders',
    description: rule(
      PERSON_RULE,
      'The owner sees every folder; visitors see only folders holding lists they may read, with those counts (empty and purely private folders stay hidden). `unfiled` counts the visible lists in no folder.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.folders,
    example: { data: { folders: [{ id: 'rpg-e-afins', name: 'RPG e afins', count: 3 }], unfiled: 5 } },
  }),
  journeys: doc({
    summary: 'A person’s journeys',
    description: rule(
      PERSON_RULE,
      'Runs the reader may see by their own visibility (the author sees all; what moderation removed, nobody here), newest first, shaped as `GET /journal/journeys` answers them. `game` is shaped like `/games`, or null when the catalog no longer has it. `sessions` and `minutes` count the sessions of the run’s game that started within its times and that the reader may see by their own visibility.',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.journeys,
    example: {
      data: [
        {
          id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
          game_id: GAME.id,
          game: GAME,
          title: 'Caminho da Dor',
          started_at: '2026-03-01T18:30:00.000Z',
          finished_at: null,
          visibility: 'PUBLIC',
          sessions: 14,
          minutes: 1260,
          likes: 5,
          comments: 2,
          awards: {},
          removed: false,
          created_at: '2026-03-01T18:30:00.000Z',
          updated_at: '2026-03-20T21:02:00.000Z',
        },
      ],
      page: { number: 1, size: 24, total_items: 1, total_pages: 1, has_more: false },
    },
  }),
  screenshots: doc({
    summary: 'A person’s screenshots',
    description: rule(
      PERSON_RULE,
      '48 a page. Each capture follows its own visibility; the owner also sees its `visibility`. `thumbnail_url` is WebP up to 640 px wide, or null (then use `image_url`). `total`, `safe_count` and `spoiler_count` count the whole gallery under `q` and `game` (`total` also under `spoilers`); captures moderation removed count nowhere.',
      '`games` lists every game of the gallery the reader may see, by name (`extdb_id`, `game_slug`, `name`, and `count` of captures), games the catalog no longer knows last with null slug and name. `games=1` adds `catalog`: the games on this page, shaped like `/games`. `q` matches the description, the game’s name or its slug (spaces or hyphens).',
    ),
    errors: NO_SUCH_PERSON,
    response: PEOPLE_ANSWERS.screenshots,
    example: {
      data: [capture],
      page: { number: 1, size: 48, total_items: 1, total_pages: 1, has_more: false },
      total: 1,
      safe_count: 1,
      spoiler_count: 0,
      games: [{ extdb_id: 1942, game_slug: 'hollow-knight', name: 'Hollow Knight', count: 1 }],
      catalog: [GAME],
    },
  }),
};
