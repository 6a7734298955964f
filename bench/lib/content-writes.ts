// The content benchmark's world and its four writes (issues 22 and 23): the demo people, writers with
// keys, and the drivers of PUT /library/{game}, POST /reviews, PUT /likes/list/{id} and POST /comments,
// each request made when it is sent. Shared by the `content` scenario and the `events` one, which runs the
// same writes with and without subscriptions to events for integrations (scenarios/content.ts says how the
// writers, their keys and their caps are chosen).
import { loadDemoCatalog } from '../../db/seeds/catalog/load-demo-catalog.js';
import { seedDemoPeople } from '../../db/seeds/demo-people.js';
import { createApp, updateApp, type AppChanges } from '../../shared/keys/apps.js';
import { createKey } from '../../shared/keys/keys.js';
import { NOT_SUSPENDED } from '../../shared/moderation/suspension.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { commenter, likeWrite, type LikeableList, type SocialWorld } from '../scenarios/content-social.js';
import type { GeneratedRequest, LoadOptions } from './load.js';
import { between, chance, inTurn, pick } from './random.js';

export const ACCOUNTS = Number(process.env.BENCH_PEOPLE_ACCOUNTS ?? 10000);
const ENTRIES = Number(process.env.BENCH_PEOPLE_ENTRIES ?? 100);
/** Writers with keys: 50 reviews a day each, so 2,500 of them can write the 100,000 with room to spare. */
const WRITERS = Number(process.env.BENCH_CONTENT_WRITERS ?? 2500);
/**
 * People with keys who comment (the writers first): 30 comments an hour each, so 2,500 can write 75,000
 * in the comments' 33 s (3 s, then three rounds of 10), and a small seed with few writers still has most of
 * its people to comment.
 */
const COMMENTERS = Number(process.env.BENCH_CONTENT_COMMENTERS ?? 2500);
export const KEY_PREFIX = 'jgt_live_';
export type Scopes = NonNullable<AppChanges['scopes']>;
/** What the writers' apps hold. */
export const WRITER_SCOPES: Scopes = [
  'library.write',
  'reviews.write',
  'profile.read',
  'social.write',
  'screenshots.write',
  'lists.write',
];
export const WRITE_ROWS = ['PUT /library/{game}', 'POST /reviews', 'PUT /likes/list/{id}', 'POST /comments'];
const STATUSES = ['COMPLETED', 'PLAYING', 'ON_HOLD', 'DROPPED', 'BACKLOG', 'WISHLIST', null];
const VISIBILITIES = ['PUBLIC', 'PUBLIC', 'PUBLIC', 'FOLLOWERS', 'PRIVATE'];

function reviewBody(words: string[]): string {
  // Mostly a few sentences; one in ten a long essay.
  const count = chance(0.1) ? between(300, 1500) : between(5, 120);
  // Within the 10,000 characters a review may hold.
  return Array.from({ length: count }, () => pick(words))
    .join(chance(0.05) ? '\n' : ' ')
    .slice(0, 10_000)
    .trim();
}

export interface ContentWorld extends SocialWorld {
  usernames: string[];
  slugs: string[];
  /** The writers' apps, in the order of `tokens` and `writerIds`. */
  appIds: string[];
  /** Writers review in turn: one reaches the 50 a day only when all have (a small seed has few writers). */
  nextReviewer: () => number;
}

/** Owners others may see: not suspended, in no block either way. */
const SEEN_OWNER = (column: string) =>
  `${NOT_SUSPENDED(column)} AND NOT EXISTS (SELECT 1 FROM blocks b WHERE ${column} IN (b.blocker_id, b.blocked_id))`;

/**
 * Seeds the demo catalog and people, gives each writer (and commenter) an app holding `scopes` and a key,
 * and reads what the writes pick from.
 */
export async function prepareContent(url: string, scopes: Scopes = WRITER_SCOPES): Promise<ContentWorld> {
  const knex = createKnex(url, 4);
  try {
    const started = Date.now();
    await loadDemoCatalog(knex);
    const seeded = await seedDemoPeople(knex, { accounts: ACCOUNTS, entriesPerAccount: ENTRIES });
    // Writers who may write: the demo has suspended people, whose writes are refused (403 `suspended`).
    const writers: Array<{ id: string; username: string }> = await knex('accounts as a')
      .where('a.username', 'like', 'demo\\_%')
      .whereRaw(NOT_SUSPENDED('a.id'))
      .orderBy('a.username')
      .limit(Math.max(WRITERS, COMMENTERS))
      .select('a.id', 'a.username');
    const tokens: string[] = [];
    const appIds: string[] = [];
    for (const writer of writers) {
      const app = await createApp(knex, writer.id, { name: 'bench writer' });
      await updateApp(knex, writer.id, app.id, { scopes });
      tokens.push((await createKey(knex, KEY_PREFIX, writer.id, app.id, { name: 'bench' })).token);
      appIds.push(app.id);
    }
    const reviews: Array<{ id: string; ownerId: string }> = await knex('reviews as r')
      .where({ 'r.visibility': 'PUBLIC' })
      .whereNull('r.removed_at')
      .whereRaw(SEEN_OWNER('r.account_id'))
      .select('r.id', 'r.account_id as ownerId');
    const profiles: Array<{ username: string; ownerId: string }> = await knex('accounts as a')
      .join('profiles as p', 'p.account_id', 'a.id')
      .where('a.username', 'like', 'demo\\_%')
      .where({ 'p.library_visibility': 'PUBLIC' })
      .whereRaw(SEEN_OWNER('a.id'))
      .select('a.username', 'a.id as ownerId');
    await knex.raw('VACUUM ANALYZE');
    // The seed's million rows are still dirty in the buffers: written out now, not by a checkpoint falling
    // inside a measured run, whose writes would then share the disk with it.
    await knex.raw('CHECKPOINT');
    const games: Array<{ id: number; slug: string; name: string }> = await knex('games').select('id', 'slug', 'name');
    const words = [...new Set(games.flatMap((g) => g.name.toLowerCase().split(/[^\p{L}\p{N}]+/u)))].filter(
      (word) => word.length >= 3,
    );
    console.log(
      `seeded ${seeded.accounts} people, ${seeded.entries} entries, ${seeded.activity} activity items and ` +
        `${tokens.length} keys (${Math.min(WRITERS, tokens.length)} writers) in ${((Date.now() - started) / 1000).toFixed(0)} s; ${reviews.length} ` +
        `public reviews and ${profiles.length} public profiles to comment on`,
    );
    return {
      tokens: tokens.slice(0, WRITERS),
      nextReviewer: inTurn(Math.min(WRITERS, tokens.length)),
      writerIds: writers.slice(0, WRITERS).map((w) => w.id),
      appIds: appIds.slice(0, WRITERS),
      commenters: { tokens, ids: writers.map((w) => w.id) },
      reviews,
      profiles,
      usernames: writers.slice(0, WRITERS).map((w) => w.username),
      gameIds: games.map((g) => g.id),
      slugs: games.map((g) => g.slug),
      words,
    };
  } finally {
    await knex.destroy();
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function libraryWrite(world: ContentWorld): GeneratedRequest {
  const rating = chance(0.6) ? between(0, 100) : null;
  const body: Record<string, unknown> = { status: pick(STATUSES), rating };
  for (const flag of ['playing', 'backlog', 'wishlist', 'liked'] as const) if (chance(0.3)) body[flag] = chance(0.5);
  const game = pick(world.gameIds);
  return {
    method: 'PUT',
    // By id or by slug, as integrations do.
    path: `/api/v1/library/${chance(0.5) ? game : pick(world.slugs)}`,
    body,
    headers: bearer(pick(world.tokens)),
  };
}

export function reviewWrite(world: ContentWorld): GeneratedRequest {
  return {
    method: 'POST',
    path: '/api/v1/reviews',
    body: {
      game_id: pick(world.gameIds),
      body: reviewBody(world.words),
      rating: chance(0.8) ? between(0, 100) : null,
      contains_spoilers: chance(0.15),
      visibility: pick(VISIBILITIES),
    },
    headers: bearer(world.tokens[world.nextReviewer()]),
  };
}

/** A write's load: what each request is made of and the statuses it must answer. */
export type WriteLoad = Omit<LoadOptions, 'url' | 'connections' | 'durationSeconds'>;

/**
 * The four writes (WRITE_ROWS, in that order) as loads; `written()` counts the comments made so far (each
 * commenter's 30 an hour are a cap a long run can reach).
 */
export function contentWrites(
  world: ContentWorld,
  lists: LikeableList[],
): { routes: Array<[string, WriteLoad]>; comments: () => number } {
  const comments = commenter(world);
  return {
    routes: [
      [WRITE_ROWS[0], { generate: () => libraryWrite(world), expectStatus: [200, 201] }],
      [WRITE_ROWS[1], { generate: () => reviewWrite(world), expectStatus: 201 }],
      [WRITE_ROWS[2], { generate: () => likeWrite(world, lists), expectStatus: 200 }],
      [WRITE_ROWS[3], { generate: () => comments.next(), expectStatus: 201 }],
    ],
    comments: comments.written,
  };
}
