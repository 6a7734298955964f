// The query parameters of GET /games (spec: Search query parameters) as one JSON Schema: lists arrive
// comma-separated and are split and checked item by item; every bound is the spec's. A value outside
// them is 400 `invalid_request` naming the parameter (shared/platform/validation/describe-error.ts).
import { pageParameter } from '../platform/paging/paging.js';
import type { SchemaObject } from '../platform/validation/ajv.js';
import { AGE_BOARDS, AGE_STEPS } from './age-ratings.js';

/** Filters on the caller's own library: they need a caller, and a key needs `library.read` too. */
export const OWN_LIBRARY_FILTERS = ['played', 'library', 'unplayed', 'wishlist', 'hideIgnored'] as const;

export function usesOwnLibrary(search: Partial<Record<(typeof OWN_LIBRARY_FILTERS)[number], unknown>>): boolean {
  return OWN_LIBRARY_FILTERS.some((name) => search[name] !== undefined);
}

export const GAME_SORTS = ['popular', 'trending', 'rating', 'votes', 'newest', 'oldest', 'hype', 'name'] as const;
export type GameSort = (typeof GAME_SORTS)[number];
export const CATALOG_MAX_PAGE = 100;
/** Browsing without a query shows main games, remakes and remasters unless `types` says otherwise. */
export const BROWSE_TYPES = [0, 8, 9];
export const GAME_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

const upstreamIds: SchemaObject = {
  type: 'array',
  maxItems: 24,
  items: { type: 'integer', minimum: 1, maximum: 2147483647 },
};
const languages: SchemaObject = {
  type: 'array',
  maxItems: 8,
  items: { type: 'string', pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$' },
};
const on: SchemaObject = { type: 'integer', enum: [1] };
const AGE_VALUES = AGE_BOARDS.flatMap((board) => AGE_STEPS[board].map((step) => `${board}-${step}`));

export const gameSearchQuery: SchemaObject = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 80 },
    platforms: upstreamIds,
    genres: upstreamIds,
    themes: upstreamIds,
    modes: upstreamIds,
    perspectives: upstreamIds,
    types: { type: 'array', maxItems: 24, items: { type: 'integer', enum: GAME_TYPES } },
    publishers: upstreamIds,
    engines: { type: 'array', maxItems: 24, items: { type: 'string', minLength: 1, maxLength: 100 } },
    franchises: upstreamIds,
    series: upstreamIds,
    genresMode: { type: 'string', enum: ['any', 'all'] },
    themesMode: { type: 'string', enum: ['any', 'all'] },
    release: { type: 'string', enum: ['released', 'upcoming'] },
    period: { type: 'string', enum: ['last-30-days', 'last-90-days', 'this-year', 'next-3-months'] },
    yearFrom: { type: 'integer', minimum: 1950, maximum: 2100 },
    yearTo: { type: 'integer', minimum: 1950, maximum: 2100 },
    demo: on,
    steam: on,
    rated: on,
    reviewed: on,
    anticipated: on,
    hideCancelled: on,
    obscure: on,
    language: languages,
    interface: languages,
    audio: languages,
    subtitles: languages,
    age: { type: 'string', enum: AGE_VALUES },
    role: { type: 'string', enum: ['publisher', 'developer'] },
    rating: { type: 'integer', minimum: 0, maximum: 100 },
    votes: { type: 'integer', minimum: 0, maximum: 100000000 },
    libraries: { type: 'integer', minimum: 1, maximum: 1000000 },
    status: { type: 'array', maxItems: 3, items: { type: 'string', enum: ['early_access', 'beta', 'alpha'] } },
    played: on,
    library: on,
    unplayed: on,
    wishlist: on,
    hideIgnored: on,
    hoursMin: { type: 'integer', minimum: 1, maximum: 500 },
    hoursMax: { type: 'integer', minimum: 1, maximum: 500 },
    sort: { type: 'string', enum: [...GAME_SORTS] },
    page: pageParameter(CATALOG_MAX_PAGE),
  },
};

/** The checked parameters, as `validate` leaves them. */
export interface GameSearch {
  q?: string;
  platforms?: number[];
  genres?: number[];
  themes?: number[];
  modes?: number[];
  perspectives?: number[];
  types?: number[];
  publishers?: number[];
  engines?: string[];
  franchises?: number[];
  series?: number[];
  genresMode?: 'any' | 'all';
  themesMode?: 'any' | 'all';
  release?: 'released' | 'upcoming';
  period?: 'last-30-days' | 'last-90-days' | 'this-year' | 'next-3-months';
  yearFrom?: number;
  yearTo?: number;
  demo?: 1;
  steam?: 1;
  rated?: 1;
  reviewed?: 1;
  anticipated?: 1;
  hideCancelled?: 1;
  obscure?: 1;
  language?: string[];
  interface?: string[];
  audio?: string[];
  subtitles?: string[];
  age?: string;
  role?: 'publisher' | 'developer';
  rating?: number;
  votes?: number;
  libraries?: number;
  status?: string[];
  hoursMin?: number;
  hoursMax?: number;
  played?: 1;
  library?: 1;
  unplayed?: 1;
  wishlist?: 1;
  hideIgnored?: 1;
  sort?: GameSort;
  page: number;
}
