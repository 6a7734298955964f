// The public index (spec: GET /index), for sitemaps: the most recent 1000 of each kind of item anyone may
// see. "Anyone" is the anonymous reader, so the answer is the same for every caller: PUBLIC items of
// people with a username who are not suspended, library entries only from PUBLIC libraries (a profile
// without a row is PUBLIC), and screenshots that moderation has not removed.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';

export const INDEX_CAP = 1000;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The columns the four queries read; each reads the ones its kind has. */
interface IndexRow {
  id: string;
  public_id: string;
  username: string;
  game_id: number;
  updated_at: Date;
  created_at: Date;
}

/** The people whose public items may be listed, joined as `a` to the item alias. */
function listedAuthors(knex: Knex, table: string, alias: string): Knex.QueryBuilder {
  return knex(`${table} as ${alias}`)
    .join('accounts as a', 'a.id', `${alias}.account_id`)
    .whereNotNull('a.username')
    .whereRaw(NOT_SUSPENDED('a.id'));
}

export async function publicIndex(knex: Knex) {
  const [reviews, entries, lists, screenshots]: IndexRow[][] = await Promise.all([
    listedAuthors(knex, 'reviews', 'r')
      .where('r.visibility', 'PUBLIC')
      .whereNull('r.removed_at')
      .select('r.id', 'a.username', 'r.game_id', 'r.updated_at')
      .orderBy([
        { column: 'r.updated_at', order: 'desc' },
        { column: 'r.id', order: 'asc' },
      ])
      .limit(INDEX_CAP),
    listedAuthors(knex, 'library_entries', 'e')
      .leftJoin('profiles as p', 'p.account_id', 'a.id')
      .whereRaw("coalesce(p.library_visibility, 'PUBLIC') = 'PUBLIC'")
      .where('e.ignored', false)
      .select('a.username', 'e.game_id', 'e.updated_at')
      .orderBy([
        { column: 'e.updated_at', order: 'desc' },
        { column: 'e.id', order: 'asc' },
      ])
      .limit(INDEX_CAP),
    listedAuthors(knex, 'lists', 'l')
      .where('l.visibility', 'PUBLIC')
      .whereNull('l.removed_at')
      .select('l.public_id', 'a.username', 'l.updated_at')
      .orderBy([
        { column: 'l.updated_at', order: 'desc' },
        { column: 'l.id', order: 'asc' },
      ])
      .limit(INDEX_CAP),
    listedAuthors(knex, 'screenshots', 's')
      .where('s.visibility', 'PUBLIC')
      .whereNull('s.removed_at')
      .select('s.public_id', 'a.username', 's.created_at')
      .orderBy([
        { column: 's.created_at', order: 'desc' },
        { column: 's.id', order: 'asc' },
      ])
      .limit(INDEX_CAP),
  ]);
  return {
    reviews: reviews.map((row) => ({
      id: row.id,
      username: row.username,
      game_id: row.game_id,
      updated_at: iso(row.updated_at),
    })),
    entries: entries.map((row) => ({
      username: row.username,
      game_id: row.game_id,
      updated_at: iso(row.updated_at),
    })),
    lists: lists.map((row) => ({
      id: row.public_id,
      username: row.username,
      updated_at: iso(row.updated_at),
    })),
    screenshots: screenshots.map((row) => ({
      id: row.public_id,
      username: row.username,
      created_at: iso(row.created_at),
    })),
  };
}
