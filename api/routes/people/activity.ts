// The activity feed (spec: GET /activity, profile.read), a person's reviews and sessions
// (GET /profiles/{username}/reviews, reviews.read) and a game's activity with its session totals
// (GET /games/{slug}/activity, the catalog's access): one set of filters, one visibility rule.
import { gameIdBySlug } from '../../../shared/catalog/games.js';
import { notFound } from '../../../shared/platform/errors.js';
import {
  ACTIVITY_KINDS,
  readActivity,
  readPersonActivity,
  type ActivityFilters,
  type FeedPageJson,
} from '../../../shared/people/activity.js';
import { gameSessionTotals } from '../../../shared/people/game-sessions.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppContext } from '../../context.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_COLLECTION_DOCS } from './people-collection-docs.js';
import { pathPerson, seenPerson } from './person.js';

const username = { type: 'string', minLength: 1, maxLength: 100 };
const filters: Record<string, SchemaObject> = {
  game: { type: 'string', maxLength: 200, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
  kinds: {
    type: 'array',
    minItems: 1,
    maxItems: ACTIVITY_KINDS.length,
    uniqueItems: true,
    items: { type: 'string', enum: [...ACTIVITY_KINDS] },
  },
  q: { type: 'string', maxLength: 80 },
  rating: { type: 'integer', minimum: 0, maximum: 100 },
  spoilers: { type: 'string', enum: ['all', 'safe', 'spoilers'], default: 'all' },
  order: { type: 'string', enum: ['new', 'old'], default: 'new' },
  before: { type: 'string', format: 'date-time' },
  limit: { type: 'integer', minimum: 1, maximum: 180, default: 30 },
  offset: { type: 'integer', minimum: 0, maximum: 10000 },
};
const feedQuery: SchemaObject = {
  type: 'object',
  properties: {
    profile: username,
    profiles: { type: 'array', minItems: 1, maxItems: 50, items: username },
    ...filters,
  },
};
const filterQuery: SchemaObject = { type: 'object', properties: filters };
const personParams: SchemaObject = { type: 'object', required: ['username'], properties: { username } };
const slugParams: SchemaObject = {
  type: 'object',
  required: ['slug'],
  properties: { slug: { type: 'string', maxLength: 200 } },
};

type Query = Omit<ActivityFilters, 'authorIds' | 'gameId'> & { game?: string; profile?: string; profiles?: string[] };

/** Account ids of the named people the reader may see; a name unknown or hidden by a block is 404. */
async function authors(ctx: AppContext, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) ids.push((await pathPerson(ctx, 'library', name)).owner.id);
  return ids;
}

async function gameIdOf(ctx: AppContext, slug: string | undefined): Promise<number | undefined> {
  if (slug === undefined) return undefined;
  // A game the catalog does not know has no activity: the filter matches nothing.
  return (await gameIdBySlug(ctx.services.knex, slug)) ?? -1;
}

async function feed(ctx: AppContext, query: Query, extra: Partial<ActivityFilters> = {}) {
  const { knex, media } = ctx.services;
  const { game, profile, profiles, ...rest } = query;
  const names = [...(profile ? [profile] : []), ...(profiles ?? [])];
  const filters = { ...rest, gameId: await gameIdOf(ctx, game), ...extra };
  const readerId = ctx.state.caller?.account.id ?? null;
  if (names.length === 1) {
    // One person: the person and their items in one statement; a name hidden or unknown is 404.
    const { person, page } = await readPersonActivity(knex, names[0], readerId, filters, media.publicBaseUrl);
    seenPerson(person, readerId);
    return page;
  }
  const authorIds = names.length ? await authors(ctx, names) : undefined;
  return readActivity(knex, readerId, { ...filters, authorIds }, media.publicBaseUrl);
}

/** Answers a page's JSON text as it is (the feed builds it whole: activity.ts). */
function answerPage(ctx: AppContext, page: FeedPageJson): void {
  ctx.type = 'application/json';
  ctx.body = page;
}

export function activityRoutes(api: VersionedRoutes): void {
  api.get(
    '/activity',
    scoped('profile.read', 'read', { anonymous: true }),
    validate({ query: feedQuery }),
    PEOPLE_COLLECTION_DOCS.activity,
    async (ctx) => {
      answerPage(ctx, await feed(ctx, ctx.state.input.query as unknown as Query));
    },
  );

  api.get(
    '/profiles/:username/reviews',
    scoped('reviews.read', 'read', { anonymous: true }),
    validate({ params: personParams, query: filterQuery }),
    PEOPLE_COLLECTION_DOCS.reviews,
    async (ctx) => {
      const query = ctx.state.input.query as unknown as Query;
      const username = ctx.state.input.params.username as string;
      // Only reviews and sessions live here; asking for other kinds alone finds nothing.
      const kinds = (query.kinds ?? ['review', 'session']).filter((kind) => kind === 'review' || kind === 'session');
      if (kinds.length) {
        answerPage(ctx, await feed(ctx, { ...query, kinds, profile: username, profiles: undefined }));
        return;
      }
      await authors(ctx, [username]);
      ctx.body = { data: [], has_more: false, next_before: null };
    },
  );

  api.get(
    '/games/:slug/activity',
    scoped('catalog.read', 'catalog', { anonymous: true }),
    validate({ params: slugParams, query: filterQuery }),
    PEOPLE_COLLECTION_DOCS.game,
    async (ctx) => {
      const gameId = await gameIdBySlug(ctx.services.knex, ctx.state.input.params.slug as string);
      if (gameId === undefined) throw notFound('No game has this slug.');
      const readerId = ctx.state.caller?.account.id ?? null;
      const [page, totals] = await Promise.all([
        feed(ctx, ctx.state.input.query as unknown as Query, { gameId }),
        gameSessionTotals(ctx.services.knex, gameId, readerId),
      ]);
      // The page's object, closed by its last brace, takes the totals as its last member.
      answerPage(ctx, `${page.slice(0, page.lastIndexOf('}'))}, "totals": ${JSON.stringify(totals)}}`);
    },
  );
}
