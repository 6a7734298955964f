// GET /library: the owner's whole library, ignored entries included (an ignored game is the owner's own
// note, shown nowhere else), with the filters, sorts, pages and `games=1` of GET /profiles/{u}/library plus
// `ignored`. Each entry carries its game's card, read in the same statement.
import type { Knex } from 'knex';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import type { LibraryQuery } from '../people/library.js';
import { gameOfMap } from '../content/game-refs.js';
import { entryGame, presentEntry } from './presenters.js';
import type { EntryWithGame } from './rows.js';

export interface OwnLibraryQuery extends LibraryQuery {
  ignored?: boolean;
}

const ORDER: Record<LibraryQuery['sort'], string> = {
  updated: 'e.updated_at DESC, e.id DESC',
  // Unrated entries last; ties (and all the unrated) by the most recent change.
  rating: 'e.rating DESC NULLS LAST, e.updated_at DESC, e.id DESC',
};

/** The owner's entries the filters keep; they combine with AND. */
function filtered(knex: Knex, accountId: string, query: OwnLibraryQuery) {
  const rows = knex('library_entries as e').where('e.account_id', accountId);
  if (query.status) rows.where('e.status', query.status);
  for (const flag of ['playing', 'backlog', 'liked', 'ignored'] as const) {
    if (query[flag] !== undefined) rows.where(`e.${flag}`, query[flag]);
  }
  // Wishlist as the profile's library and summary count it: the flag, or the WISHLIST status.
  if (query.wishlist !== undefined) {
    const wished = "(e.wishlist OR e.status IS NOT DISTINCT FROM 'WISHLIST')";
    rows.whereRaw(query.wishlist ? wished : `NOT ${wished}`);
  }
  return rows;
}

export async function readOwnLibrary(knex: Knex, accountId: string, query: OwnLibraryQuery) {
  const spec = { size: query.limit };
  const { limit, offset } = pageWindow(query.page, spec);
  const [rows, [{ total }]] = await Promise.all([
    filtered(knex, accountId, query)
      .leftJoin('games as g', 'g.id', 'e.game_id')
      .select<EntryWithGame[]>(
        'e.*',
        'g.slug as game_slug',
        'g.name as game_name',
        'g.cover_image_id as game_cover_image_id',
      )
      .orderByRaw(ORDER[query.sort])
      .limit(limit)
      .offset(offset),
    filtered(knex, accountId, query).count<Array<{ total: string | number }>>({ total: '*' }),
  ]);
  const data = rows.map(presentEntry);
  return {
    data,
    page: pageObject(query.page, spec, Number(total)),
    // As GET /profiles/{u}/library gives them: by game id, null for a game the catalog lost.
    ...(query.games === 1
      ? {
          games: Object.fromEntries(rows.map((row) => [row.game_id, gameOfMap(entryGame(row))])),
        }
      : {}),
  };
}

/**
 * Entries of several owners by game, each with its game's card columns (null when the catalog lost the
 * game), in one statement: what GET /library/{game} reads one at a time, for a batch (events for
 * integrations render a claim's entries together). Answered by `${account_id}:${game_id}`.
 */
export async function entriesByGame(
  knex: Knex,
  keys: Array<{ accountId: string; gameId: number }>,
): Promise<Map<string, EntryWithGame>> {
  const found = new Map<string, EntryWithGame>();
  if (keys.length === 0) return found;
  const { rows } = await knex.raw<{ rows: EntryWithGame[] }>(
    `SELECT e.*, g.slug AS game_slug, g.name AS game_name, g.cover_image_id AS game_cover_image_id
       FROM unnest(CAST(? AS uuid[]), CAST(? AS int[])) AS k(account_id, game_id)
       JOIN library_entries e ON e.account_id = k.account_id AND e.game_id = k.game_id
       LEFT JOIN games g ON g.id = e.game_id`,
    [keys.map((key) => key.accountId), keys.map((key) => key.gameId)] as unknown as Knex.Value[],
  );
  for (const row of rows) found.set(`${row.account_id}:${row.game_id}`, row);
  return found;
}
