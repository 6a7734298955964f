// The owner's writes of one library entry (DECISIONS: Library): PUT replaces it (or creates it), PATCH
// changes the fields sent, DELETE removes it. Each owns its transaction, and the feed item of a creation or
// of a status or rating change is written in it (noteEntryChange coalesces within 10 minutes).
//
// The common PUT, replacing an entry that exists, is one statement that finds the game, updates the entry
// and reports the status and rating it replaced. Only when there is nothing to update does a PUT take the
// account's library lock, then count and insert: parallel creators queue on the lock, so neither the
// 20,000 limit nor the unique (account, game) can be passed, and a later one finds the entry the first
// made and replaces it.
import type { Knex } from 'knex';
import { noteEntryChange } from '../content/feed-items.js';
import { gameInPath, parseGameSegment } from '../content/game-refs.js';
import { conflict, notFound } from '../platform/errors.js';
import {
  ENTRY_FIELD_NAMES,
  LIBRARY_ENTRY_LIMIT,
  refuseEntryData,
  tellsTheFeed,
  type EntryBefore,
  type EntryFields,
} from './entry-rules.js';
import { insertEntry, libraryLockKey, updateEntry, type FoundGame, type Updated } from './entry-statements.js';
import type { EntryRow, EntryWithGame } from './rows.js';

export const entryNotFound = () => notFound('Your library has no entry for this game.', 'entry_not_found');

export function libraryFull(count: number) {
  return conflict(
    'library_full',
    { limit: LIBRARY_ENTRY_LIMIT, count },
    `A library holds at most ${LIBRARY_ENTRY_LIMIT} entries.`,
  );
}

/** Held to the end of the transaction by whoever may create entries of the account (PUT, import). */
export async function lockLibrary(trx: Knex.Transaction, accountId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [libraryLockKey(accountId)]);
}

/** The id of a game the catalog lost that the owner's library still holds, named by id; else 404. */
async function lostGameId(knex: Knex, accountId: string, segment: string): Promise<number> {
  const name = parseGameSegment(segment);
  const held =
    'id' in name && (await knex('library_entries').where({ account_id: accountId, game_id: name.id }).first('id'));
  if (!held) throw notFound('No game has this id or slug.', 'game_not_found');
  return name.id;
}

/**
 * The game of `/library/{game}` for a read or a delete: the catalog's by id or slug (404 `game_not_found`),
 * or, named by id, one the catalog lost while the owner's entry still names it, so that entry can still be
 * read, changed and deleted.
 */
export async function pathGame(knex: Knex, accountId: string, segment: string): Promise<FoundGame> {
  try {
    return { ...(await gameInPath(knex, segment)), lost: false };
  } catch (error) {
    const id = await lostGameId(knex, accountId, segment).catch(() => {
      throw error;
    });
    return { id, slug: '', name: '', platform_ids: [], lost: true };
  }
}

function withGame(row: EntryRow, game: FoundGame): EntryWithGame {
  return { ...row, game_slug: game.lost ? null : game.slug, game_name: game.lost ? null : game.name };
}

async function tellFeed(trx: Knex.Transaction, row: EntryRow, before: EntryBefore | null): Promise<void> {
  if (tellsTheFeed(before, row)) await noteEntryChange(trx, row.account_id, row.id, row.game_id);
}

/**
 * Finds the game the path names and applies `fields` to its entry, then refuses what only the game can
 * refuse (its platforms; a finish in the future), rolling the change back with the transaction.
 */
async function changeEntry(
  trx: Knex.Transaction,
  accountId: string,
  segment: string,
  fields: Partial<EntryFields>,
  lockOnMiss: boolean,
): Promise<Updated & { game: FoundGame }> {
  let found = await updateEntry(trx, accountId, parseGameSegment(segment), fields, lockOnMiss);
  if (!found.game) {
    const lostId = await lostGameId(trx, accountId, segment);
    found = await updateEntry(trx, accountId, { lostId }, fields);
  }
  refuseEntryData(found.game!, fields);
  return found as Updated & { game: FoundGame };
}

/**
 * PUT: the whole entry, `created` when there was none. Replacing is one statement (and the feed item when
 * the status or rating changed); creating adds one more, which counts, inserts and adds the item. A game
 * the catalog lost can be replaced, never created.
 */
export async function putEntry(
  knex: Knex,
  accountId: string,
  segment: string,
  fields: EntryFields,
): Promise<{ entry: EntryWithGame; created: boolean }> {
  return knex.transaction(async (trx) => {
    const { game, changed } = await changeEntry(trx, accountId, segment, fields, true);
    if (changed) {
      await tellFeed(trx, changed.row, changed.before);
      return { entry: withGame(changed.row, game), created: false };
    }
    if (game.lost) throw notFound('No game has this id or slug.', 'game_not_found');
    const made = await insertEntry(trx, accountId, game.id, fields);
    if (made.row) return { entry: withGame(made.row, game), created: true };
    if (!made.held && made.count >= LIBRARY_ENTRY_LIMIT) throw libraryFull(made.count);
    // A parallel PUT made it between our UPDATE and our lock: replace what it made.
    const raced = (await updateEntry(trx, accountId, { id: game.id }, fields)).changed!;
    await tellFeed(trx, raced.row, raced.before);
    return { entry: withGame(raced.row, game), created: false };
  });
}

/** PATCH: only the fields sent change; nothing sent changes nothing (not even `updated_at`). */
export async function patchEntry(
  knex: Knex,
  accountId: string,
  segment: string,
  fields: Partial<EntryFields>,
): Promise<EntryWithGame> {
  if (ENTRY_FIELD_NAMES.every((name) => fields[name] === undefined)) {
    return findEntry(knex, accountId, await pathGame(knex, accountId, segment));
  }
  return knex.transaction(async (trx) => {
    const { game, changed } = await changeEntry(trx, accountId, segment, fields, false);
    if (!changed) throw entryNotFound();
    await tellFeed(trx, changed.row, changed.before);
    return withGame(changed.row, game);
  });
}

export async function findEntry(knex: Knex, accountId: string, game: FoundGame): Promise<EntryWithGame> {
  const row = await knex<EntryRow>('library_entries').where({ account_id: accountId, game_id: game.id }).first();
  if (!row) throw entryNotFound();
  return withGame(row, game);
}

/** DELETE: the entry goes, and its feed items with it (a trigger of the table). */
export async function deleteEntry(knex: Knex, accountId: string, gameId: number): Promise<void> {
  const deleted = await knex('library_entries').where({ account_id: accountId, game_id: gameId }).delete();
  if (deleted === 0) throw entryNotFound();
}
