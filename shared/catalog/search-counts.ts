// GET /search/counts: how many results each tab of the site's search would show, each capped at 1000
// (counting stops there). Only what anyone may see counts: public reviews and lists moderation has not
// removed, public things with at least one award (reviews, lists, journeys, screenshots; partial indexes
// hold the few awarded ones), people who are not suspended, every game and company. The same answer serves every reader, so it is cached for 60 seconds
// per query in the process (and may be by browsers and shared caches).
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { likeContaining } from '../platform/db/like.js';
import { ExpiringMap } from '../platform/expiring-map.js';

export const COUNT_CAP = 1000;
const TTL_MS = 60_000;
const MAX_CACHED = 1000;

export interface SearchCounts {
  q: string | null;
  cap: number;
  games: number;
  reviews: number;
  lists: number;
  tier_lists: number;
  awards: number;
  people: number;
  companies: number;
}

const cache = new ExpiringMap<SearchCounts>(TTL_MS, MAX_CACHED);

/** `count(*)` of at most COUNT_CAP rows of `from` matching `where`. */
function capped(from: string, where: string[]): string {
  return `(SELECT count(*)::int FROM (SELECT 1 FROM ${from} WHERE ${where.length ? where.join(' AND ') : 'true'} LIMIT ${COUNT_CAP}) c)`;
}

async function count(knex: Knex, q: string | null): Promise<SearchCounts> {
  const like = q ? likeContaining(q) : null;
  const text = (column: string) => (like ? [`catalog_fold(${column}) LIKE catalog_fold(:like)`] : []);
  const publicBy = (alias: string) => [
    `${alias}.visibility = 'PUBLIC'`,
    `${alias}.removed_at IS NULL`,
    NOT_SUSPENDED(`${alias}.account_id`),
  ];
  // Awarded things of every kind, matched by their text as the reviews and lists tabs match theirs.
  const awarded = [
    ['reviews', 'body'],
    ['lists', 'title'],
    ['journeys', 'title'],
    ['screenshots', 'description'],
  ]
    .map(
      ([table, column]) =>
        `SELECT 1 FROM ${table} t WHERE ${["t.awards <> '{}'::jsonb", ...publicBy('t'), ...text(`t.${column}`)].join(' AND ')}`,
    )
    .join(' UNION ALL ');
  const { rows } = await knex.raw<{ rows: Array<Omit<SearchCounts, 'q' | 'cap'>> }>(
    `SELECT
       ${capped('games g', like ? ['g.name_folded LIKE catalog_fold(:like)'] : [])} AS games,
       ${capped('reviews r', [...publicBy('r'), ...text('r.body')])} AS reviews,
       ${capped('lists l', [...publicBy('l'), "l.mode <> 'tier'", ...text('l.title')])} AS lists,
       ${capped('lists t', [...publicBy('t'), "t.mode = 'tier'", ...text('t.title')])} AS tier_lists,
       ${capped(`(${awarded}) w`, [])} AS awards,
       ${capped('accounts a', [
         'a.username IS NOT NULL',
         NOT_SUSPENDED('a.id'),
         ...(like
           ? [
               "(catalog_fold(a.username) LIKE catalog_fold(:like) OR catalog_fold(coalesce(a.display_name, '')) LIKE catalog_fold(:like))",
             ]
           : []),
       ])} AS people,
       ${capped('catalog_companies co', text('co.name'))} AS companies`,
    like ? { like } : {},
  );
  return { q, cap: COUNT_CAP, ...rows[0] };
}

export async function searchCounts(knex: Knex, query: string | undefined, now = Date.now()): Promise<SearchCounts> {
  const q = query?.trim() || null;
  const key = q ?? '';
  const hit = cache.get(key, now);
  if (hit) return hit;
  const counts = await count(knex, q);
  cache.set(key, counts, now);
  return counts;
}

/** Tests start from an empty cache. */
export function clearSearchCountCache(): void {
  cache.clear();
}
