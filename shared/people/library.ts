// A person's library as a reader sees it (spec: GET /profiles/{username}/library): everything to the
// owner and for a PUBLIC library, to followers for a FOLLOWERS one, and an empty page (not an error)
// otherwise, so a client need not tell "private" from "empty". Filters combine with AND; the total comes
// from its own count, so `has_more` is right even past the last row.
import type { Knex } from 'knex';
import { gameOfMap, type CardGame } from '../content/game-refs.js';
import { queryPrepared, statementName } from '../platform/db/prepared.js';
import { pageObject, pageWindow, type PageSpec } from '../platform/paging/paging.js';
import { couldBeUsername, foundPerson, NOBODY, personLookup, seesLibrarySql, type FoundPerson } from './visibility.js';

export const LIBRARY_STATUSES = ['COMPLETED', 'PLAYING', 'ON_HOLD', 'DROPPED', 'BACKLOG', 'WISHLIST'] as const;
export const LIBRARY_SORTS = ['updated', 'rating'] as const;
export const LIBRARY_FLAGS = ['playing', 'backlog', 'wishlist', 'liked'] as const;

export interface LibraryQuery {
  page: number;
  limit: number;
  status?: (typeof LIBRARY_STATUSES)[number];
  playing?: boolean;
  backlog?: boolean;
  wishlist?: boolean;
  liked?: boolean;
  sort: (typeof LIBRARY_SORTS)[number];
  games?: number;
}

// Times are formatted in the statement as JavaScript's toISOString would, so the page needs no parsing.
const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENTRY_COLUMNS = `game_id, status, playing, backlog, wishlist, liked, rating, platform_id,
  ${ISO('updated_at')} AS updated_at, ${ISO('created_at')} AS created_at`;

const ORDER: Record<LibraryQuery['sort'], string> = {
  // Qualified: unqualified names in ORDER BY would mean the formatted text columns of the same names.
  updated: 'le.updated_at DESC, le.id DESC',
  // Unrated entries last; ties (and all the unrated) by the most recent change.
  rating: 'le.rating DESC NULLS LAST, le.updated_at DESC, le.id DESC',
};

/**
 * The WHERE of the filtered entries, with `$n` placeholders numbered after `values`' current length. The
 * owner is SQL: a placeholder, or the person looked up in the same statement.
 */
function conditions(owner: string, query: LibraryQuery, values: unknown[]): string {
  const bind = (value: unknown) => `$${values.push(value)}`;
  // An ignored game is the owner's "not for me": GET /library shows it, a profile does not.
  const parts = [`account_id = ${owner}`, 'NOT ignored'];
  if (query.status) parts.push(`status = ${bind(query.status)}`);
  for (const flag of ['playing', 'backlog', 'liked'] as const) {
    if (query[flag] !== undefined) parts.push(`${flag} = ${bind(query[flag])}`);
  }
  // Wishlist as the summary counts it: the flag, or the WISHLIST status.
  if (query.wishlist !== undefined) {
    const condition = "(wishlist OR status IS NOT DISTINCT FROM 'WISHLIST')";
    parts.push(query.wishlist ? condition : `NOT ${condition}`);
  }
  return parts.join(' AND ');
}

/**
 * The page, its total and (with `games`) the page's games, as a CTE and the columns that read it. `owner`
 * is SQL for the owner's id; `values` holds the bindings before these (numbered on from its length).
 */
function libraryParts(owner: string, query: LibraryQuery, limit: number, offset: number, values: unknown[]) {
  const where = conditions(owner, query, values);
  const order = ORDER[query.sort];
  // n keeps the page's order through json_agg.
  const page = `SELECT ${ENTRY_COLUMNS}, row_number() OVER (ORDER BY ${order}) AS n
    FROM library_entries le WHERE ${where} ORDER BY ${order}
    LIMIT $${values.push(limit)} OFFSET $${values.push(offset)}`;
  // A game the catalog lost is absent here and maps to null below.
  const games =
    query.games === 1
      ? `(SELECT coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'slug', g.slug,
            'cover_image_id', g.cover_image_id)), '[]')
          FROM games g WHERE g.id IN (SELECT game_id FROM page))`
      : `'[]'::json`;
  return {
    cte: `page AS (${page})`,
    columns: `(SELECT count(*) FROM library_entries WHERE ${where})::int AS total,
      (SELECT coalesce(json_agg(page ORDER BY n), '[]') FROM page) AS entries,
      ${games} AS games`,
  };
}

/**
 * The page of the person holding `name`, in the statement that looks them up (personLookup): one round
 * trip for the whole request, and the text depends only on which filters are present, so it runs prepared
 * and PostgreSQL plans each shape once per connection. The page is read only when the reader sees the
 * library in full by the rule in SQL; what is answered is still decided by viewsOf on the person returned.
 */
export function personLibraryStatement(
  name: string,
  readerId: string | null,
  query: LibraryQuery,
  limit: number,
  offset: number,
) {
  const values: unknown[] = [name, readerId ?? NOBODY];
  const owner = `(SELECT person.id FROM person WHERE ${seesLibrarySql('person', '$2')})`;
  const { cte, columns } = libraryParts(owner, query, limit, offset, values);
  return {
    text: `WITH person AS MATERIALIZED (${personLookup('$1', '$2')}), ${cte} SELECT person.*, ${columns} FROM person`,
    values,
  };
}

export interface LibraryPage {
  total: number;
  entries: Array<Record<string, unknown> & { game_id: number; n?: number }>;
  games: Array<CardGame & { id: number }>;
}

/** Name, cover and slug of the page's games; a game the catalog lost maps to null. */
function gamesOf(ids: number[], found: LibraryPage['games']) {
  const byId = new Map(found.map((game) => [game.id, game]));
  return Object.fromEntries(
    [...new Set(ids)].map((id) => {
      const game = byId.get(id);
      return [id, gameOfMap(game)];
    }),
  );
}

/** The page a reader who does not see the library gets: empty, not an error. */
export const EMPTY_LIBRARY: LibraryPage = { total: 0, entries: [], games: [] };

/**
 * The person holding `name` (null: nobody, or not a name at all) and their library page as the statement
 * read it (empty when nobody holds the name); the caller decides from the person whether the reader sees
 * the page (libraryAnswer).
 */
export async function readPersonLibrary(
  knex: Knex,
  name: string,
  readerId: string | null,
  query: LibraryQuery,
): Promise<{ person: FoundPerson | null; page: LibraryPage }> {
  if (!couldBeUsername(name)) return { person: null, page: EMPTY_LIBRARY };
  const { limit, offset } = pageWindow(query.page, { size: query.limit });
  const { text, values } = personLibraryStatement(name, readerId, query, limit, offset);
  const [row] = await queryPrepared(knex, statementName('jogatina_library', text), text, values);
  if (!row) return { person: null, page: EMPTY_LIBRARY };
  const { total, entries, games, ...person } = row as unknown as LibraryPage & Record<string, unknown>;
  return { person: foundPerson(person, readerId), page: { total, entries, games } };
}

/** The answer of GET /profiles/{username}/library for a page. */
export function libraryAnswer(page: LibraryPage, owner: { username: string | null }, query: LibraryQuery) {
  const spec: PageSpec = { size: query.limit };
  const entries = page.entries.map(({ n: _n, ...entry }) => entry);
  return {
    data: entries,
    page: pageObject(query.page, spec, page.total),
    profile: { username: owner.username },
    ...(query.games === 1
      ? {
          games: gamesOf(
            entries.map((e) => e.game_id),
            page.games,
          ),
        }
      : {}),
  };
}
