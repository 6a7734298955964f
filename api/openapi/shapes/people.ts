// A person's pages and the feeds (spec: People; shared/people/).
import { LIBRARY_STATUSES } from '../../../shared/people/library.js';
import { LIST_MODES } from '../../../shared/people/lists.js';
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
  uri,
  uuid,
  type SchemaObject,
} from '../response-schemas.js';
import { coverUrl, Game } from './catalog.js';
import { Journey } from './journal.js';
import { Page } from './pages-and-images.js';
import { LayoutDocument, LayoutMedia } from './profile.js';
import { Connection, person, PersonSummary } from './social.js';

const VISIBILITY = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'];

const common = {
  id: uuid(),
  username: string('The author.'),
  game_id: nullable(integer('Null when the item names no game (lists), or a game the catalog no longer has.')),
  created_at: dateTime('To the microsecond: pass the last one back as `before`.'),
};

/** What a likeable thing (review, list, screenshot, journey) shows wherever it is shown. */
export const reactions: Record<string, SchemaObject> = {
  likes: integer('How many people like it.'),
  comments: integer('Comments on it (those moderation removed are not counted).'),
  awards: map(integer(), 'Awards given to it: award id to count; `{}` when none.'),
};

const item = (kind: string, members: Record<string, SchemaObject>) =>
  object({ ...common, kind: constant(kind), ...members }, { description: `A ${kind} item.` });

export const ActivityItem = component('ActivityItem', {
  description:
    'An item of the activity feed: `id`, `kind`, `username`, `game_id`, `created_at` and its kind’s members: the thing it is about (`review_id`, `session_id`, `journey_id`, `list_id`, `screenshot_id`; an entry’s thing is its game) and, on likeable things, `likes`, `comments` and `awards`. A library entry’s item shows the entry as it is now: changes within 10 minutes of each other move one item instead of adding more. An item whose subject was removed while the page was read shows the common members alone.',
  anyOf: [
    item('review', {
      review_id: uuid('The review (GET /reviews/{id}).'),
      body: string(),
      rating: nullable(integer()),
      contains_spoilers: boolean(),
      ...reactions,
    }),
    item('session', {
      session_id: uuid('The play session.'),
      minutes: nullable(integer('Null while the session runs.')),
      live: boolean(),
    }),
    item('entry', { status: nullable(oneOf(LIBRARY_STATUSES)), rating: nullable(integer()) }),
    item('list', { list_id: string('The list’s public id.'), title: string(), ...reactions }),
    item('journey', { journey_id: uuid('The journey (run).'), title: string(), ...reactions }),
    item('screenshot', {
      screenshot_id: string('The capture’s public id.'),
      contains_spoilers: boolean(),
      ...reactions,
      imageUrl: nullable(uri()),
      thumbnailUrl: nullable(uri('WebP up to 640 px across, or null: then use `imageUrl`.')),
      thumbnailWidth: nullable(integer()),
      thumbnailHeight: nullable(integer()),
    }),
    object(
      { ...common, kind: oneOf(['entry', 'session', 'review', 'list', 'screenshot', 'journey']) },
      { description: 'An item whose subject was removed while the page was read.' },
    ),
  ],
});

const feed = (more: Record<string, SchemaObject> = {}) =>
  object({
    data: list(ActivityItem),
    has_more: boolean(),
    next_before: nullable(dateTime('Pass it as `before` for the next page; null on the last.')),
    ...more,
  });

export const LibraryEntry = component(
  'LibraryEntry',
  object({
    game_id: integer(),
    status: nullable(oneOf(LIBRARY_STATUSES)),
    playing: boolean(),
    backlog: boolean(),
    wishlist: boolean(),
    liked: boolean(),
    rating: nullable(integer('0 to 100.')),
    platform_id: nullable(integer()),
    updated_at: dateTime(),
    created_at: dateTime(),
  }),
);

export const Capture = component(
  'Capture',
  object(
    {
      id: string('The capture’s public id.'),
      game_id: integer(),
      description: string(),
      contains_spoilers: boolean(),
      sensitive: boolean(),
      image_url: uri(),
      image_width: integer(),
      image_height: integer(),
      thumbnail_url: nullable(uri('WebP up to 640 px wide, or null: then use `image_url`.')),
      thumbnail_width: nullable(integer()),
      thumbnail_height: nullable(integer()),
      ...reactions,
      created_at: dateTime(),
      visibility: oneOf(VISIBILITY, 'Only in the owner’s own gallery.'),
    },
    { optional: ['visibility'] },
  ),
);

export const ListSummary = component(
  'ListSummary',
  object(
    {
      id: string('The list’s public id.'),
      title: string(),
      description: string(),
      visibility: oneOf(VISIBILITY, 'Only the owner sees it.'),
      mode: oneOf(LIST_MODES),
      ...reactions,
      size: integer('The preview count: a tier list’s ranked games.'),
      folder: nullable(string('A folder id.')),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    { optional: ['visibility'] },
  ),
);

export const PEOPLE_ANSWERS = {
  profile: answer(
    object({
      username: string('The current name, also when asked by an alias.'),
      display_name: string(),
      bio: string(),
      pronouns: string(),
      thought: string(),
      video_username: string(),
      photo_username: string(),
      microblog_username: string(),
      library_visibility: oneOf(VISIBILITY),
      avatar_url: nullable(uri()),
      banner_url: nullable(uri()),
      aliases: list(
        string(),
        'Former usernames of the last 30 days, newest first: the names a lookup still accepts for this person.',
      ),
      created_at: dateTime(),
      private: boolean('Library visibility is not PUBLIC: following makes a request.'),
    }),
  ),
  social: answer(
    object({
      username: string(),
      followers: integer(),
      following: integer(),
      relationship: nullable(
        object(
          { self: boolean(), following: boolean(), requested: boolean(), followed_by: boolean() },
          { description: 'Null for anonymous readers.' },
        ),
      ),
      conversation: nullable(
        object(
          {
            total: integer(),
            comments: list(
              object({ id: uuid(), author: PersonSummary, body: string(), created_at: dateTime() }),
              'The newest 20.',
            ),
          },
          { description: 'Null for readers who may not see a private account’s conversation.' },
        ),
      ),
      wallet: nullable(object({ balance: integer(), level: integer() }, { description: 'The reader’s own.' })),
    }),
  ),
  summary: answer(
    object({
      library: integer(),
      played: integer(),
      playing: integer(),
      backlog: integer(),
      wishlist: integer(),
      lists: integer(),
      reviews: integer(),
      diary: integer('Closed play sessions.'),
      journeys: integer(),
      screenshots: integer(),
      screenshot_games: integer(),
      screenshot_spoilers: integer(),
      followers: integer(),
      following: integer(),
      viewer_follows: boolean(),
      follows_viewer: boolean(),
    }),
  ),
  library: object(
    {
      data: list(LibraryEntry),
      page: Page,
      profile: object({ username: string() }),
      games: map(
        nullable(object({ name: string(), cover: coverUrl(), slug: string() })),
        'With `games=1`: by game id; null for a game the catalog no longer has.',
      ),
    },
    { optional: ['games'] },
  ),
  connections: object({
    data: list(Connection, 'Newest first.'),
    page: object({ size: integer(), has_more: boolean() }),
    next_before: nullable(dateTime('Pass it as `before` to continue; null on the last page.')),
  }),
  layout: answer(
    object({
      layout: LayoutDocument,
      customized: boolean('False: the default layout.'),
      media: LayoutMedia,
    }),
  ),
  stats: answer(
    object({
      username: string(),
      totals: object({ sessions: integer(), minutes: integer(), days: integer(), games: integer() }),
      per_year: list(object({ year: integer(), sessions: integer(), minutes: integer() })),
      days_of_week: list(object({ day: integer('1 (Monday) to 7, UTC.'), minutes: integer() })),
      most_played: list(object({ game_id: integer(), minutes: integer(), sessions: integer() }), 'Up to 10.'),
      copy_platforms: list(object({ platform_id: integer(), copies: integer() })),
      rating_distribution: list(object({ from: integer(), count: integer() }), 'Buckets of 10 points.'),
      taste: list(object({ game_id: integer(), minutes: integer() }), 'Up to 1000, most minutes first.'),
    }),
  ),
  year: answer(
    object({
      username: string(),
      year: integer(),
      sessions: list(object({ id: uuid(), game_id: integer(), started_at: dateTime(), minutes: integer() })),
      reviews: list(object({ id: uuid(), game_id: integer(), rating: nullable(integer()), created_at: dateTime() })),
      library: list(
        object({
          game_id: integer(),
          status: nullable(oneOf(LIBRARY_STATUSES)),
          playing: boolean(),
          added: boolean(),
          played: boolean(),
        }),
      ),
      lists: list(object({ id: string(), title: string(), mode: oneOf(LIST_MODES), created_at: dateTime() })),
      screenshots: list(object({ id: string(), game_id: integer(), created_at: dateTime() })),
      journeys: list(object({ id: uuid(), game_id: integer(), title: string(), created_at: dateTime() })),
      totals: object({
        sessions: integer(),
        minutes: integer(),
        reviews: integer(),
        added: integer(),
        played: integer(),
        lists: integer(),
        screenshots: integer(),
        journeys: integer(),
      }),
    }),
  ),
  minerals: answer(object({ username: string(), balance: integer(), level: integer() })),
  verification: answer(
    nullable(
      object({
        vouched_by: nullable(string('A username; null when that account is gone.')),
        verified_at: dateTime(),
      }),
    ),
  ),
  levels: answer(list(object({ id: uuid(), username: string(), level: integer(), verified: boolean() }))),
  search: answer(list(person({ verified: boolean(), level: integer() })), { page: Page }),
  index: answer(
    object({
      reviews: list(object({ id: uuid(), username: string(), game_id: integer(), updated_at: dateTime() })),
      entries: list(object({ username: string(), game_id: integer(), updated_at: dateTime() })),
      lists: list(object({ id: string(), username: string(), updated_at: dateTime() })),
      screenshots: list(object({ id: string(), username: string(), created_at: dateTime() })),
    }),
  ),
  discovery: answer(
    object({
      friends_playing: list(person({ level: integer(), games: list(integer(), 'Up to 3 game ids.') })),
      similar_taste: list(person({ level: integer(), shared_games: integer() })),
    }),
  ),
  activity: feed(),
  gameActivity: feed({
    totals: object(
      {
        sessions: integer(),
        minutes: integer(),
        days: integer('Distinct UTC calendar days a session covers (one across midnight counts both).'),
      },
      { description: 'The closed sessions of the game the reader may see.' },
    ),
  }),
  lists: object({
    data: list(ListSummary),
    page: object(
      {
        number: integer(
          'The page `offset` falls in, counting pages of `limit` lists (offset ÷ limit + 1); 1 with `before`.',
        ),
        size: integer('`limit`.'),
        total_items: integer('Lists matching every filter (and `before`), on every page.'),
        total_pages: integer('total_items ÷ limit, rounded up.'),
        has_more: boolean('Whether another page may be asked for: false once the next offset would pass 10000.'),
      },
      { description: 'The spec’s page object, for a collection paged by `offset` and `limit` or by `before`.' },
    ),
  }),
  folders: answer(
    object({
      folders: list(object({ id: string(), name: string(), count: integer('Lists the reader may read.') })),
      unfiled: integer('Visible lists in no folder.'),
    }),
  ),
  journeys: answer(list(Journey), { page: Page }),
  screenshots: object(
    {
      data: list(Capture),
      page: Page,
      total: integer(),
      safe_count: integer(),
      spoiler_count: integer(),
      games: list(
        object({
          extdb_id: integer(),
          game_slug: nullable(string()),
          name: nullable(string()),
          count: integer(),
        }),
        'Every game of the gallery the reader may see, by name.',
      ),
      catalog: list(Game, 'With `games=1`: the games on this page.'),
    },
    { optional: ['catalog'] },
  ),
};
