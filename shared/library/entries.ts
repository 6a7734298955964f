// The owner's writes of one library entry (DECISIONS: Library): PUT replaces it (or creates it), PATCH
// changes the fields sent, DELETE removes it. Each owns its transaction, and the feed item of a creation or
// of a status or rating change is written in it (noteEntryChange coalesces within 10 minutes).
//
// A PUT of a catalog game is one statement with no transaction around it (putCatalogEntry): the upsert
// holds the unique (account, game), so parallel creators make one entry, and the account's row of
// `library_counts` holds the 20,000 limit, so parallel creators at 19,999 make one more. Only a PUT of a
// game the catalog lost (replacing, never creating) and PATCH take a transaction of several statements.
import type { Knex } from 'knex';
import { refuseFuture } from '../content/content-rules.js';
import { ENTRY_COALESCE_MS, noteEntryChange } from '../content/feed-items.js';
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
import { putCatalogEntry, updateEntry, type FoundGame, type Updated } from './entry-statements.js';
import { LibraryEntry } from './models.js';
import type { EntryRow, EntryWithGame } from './rows.js';

export const entryNotFound = () => notFound('Your library has no entry for this game.', 'entry_not_found');

export function libraryFull(count: number) {
  return conflict(
    'library_full',
    { limit: LIBRARY_ENTRY_LIMIT, count },
    `A library holds at most ${LIBRARY_ENTRY_LIMIT} entries.`,
  );
}

/**
 * Held to the end of the transaction by an import, which counts before it writes: the account's row of
 * `library_counts`, on which every creator's trigger queues, so the count it reads next stays true.
 */
export async function lockLibrary(trx: Knex.Transaction, accountId: string): Promise<void> {
  await trx.raw(
    `INSERT INTO library_counts AS c (account_id) VALUES (?)
     ON CONFLICT (account_id) DO UPDATE SET entries = c.entries`,
    [accountId],
  );
}

/** Whether `error` is a creation refused by the account's 20,000-entry limit (migration single_statement_writes). */
export function passedTheLimit(error: unknown): boolean {
  return (error as { constraint?: string }).constraint === 'library_counts_limit';
}

/** The id of a game the catalog lost that the owner's library still holds, named by id; else 404. */
async function lostGameId(knex: Knex, accountId: string, segment: string): Promise<number> {
  const name = parseGameSegment(segment);
  const held =
    'id' in name && (await LibraryEntry.query(knex).select('id').findOne({ account_id: accountId, game_id: name.id }));
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
    return { id, slug: '', name: '', platform_ids: [], cover_image_id: null, lost: true };
  }
}

function withGame(row: EntryRow, game: FoundGame): EntryWithGame {
  return {
    ...row,
    game_slug: game.lost ? null : game.slug,
    game_name: game.lost ? null : game.name,
    game_cover_image_id: game.lost ? null : game.cover_image_id,
  };
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
): Promise<Updated & { game: FoundGame }> {
  let found = await updateEntry(trx, accountId, parseGameSegment(segment), fields);
  if (!found.game) {
    const lostId = await lostGameId(trx, accountId, segment);
    found = await updateEntry(trx, accountId, { lostId }, fields);
  }
  refuseEntryData(found.game!, fields);
  return found as Updated & { game: FoundGame };
}

/**
 * PUT: the whole entry, `created` when there was none. A catalog game's is one statement; a game the
 * catalog lost can be replaced (in a transaction, as PATCH does), never created.
 */
export async function putEntry(
  knex: Knex,
  accountId: string,
  segment: string,
  fields: EntryFields,
): Promise<{ entry: EntryWithGame; created: boolean }> {
  // Refused before anything is written; the platform needs the game, which the statement reads.
  refuseFuture('finished_at', fields.finished_at);
  const outcome = await putCatalogEntry(
    knex,
    accountId,
    parseGameSegment(segment),
    fields,
    ENTRY_COALESCE_MS / 1000,
  ).catch((error: unknown) => {
    if (passedTheLimit(error)) throw libraryFull(LIBRARY_ENTRY_LIMIT);
    throw error;
  });
  if (!outcome.game) return { entry: await replaceLostEntry(knex, accountId, segment, fields), created: false };
  refuseEntryData(outcome.game, fields);
  return { entry: withGame(outcome.row!, outcome.game), created: outcome.created! };
}

/** PUT of a game the catalog lost that the owner's entry still names: replaced, or 404 as any unknown game. */
async function replaceLostEntry(knex: Knex, accountId: string, segment: string, fields: EntryFields) {
  return knex.transaction(async (trx) => {
    const { game, changed } = await changeEntry(trx, accountId, segment, fields);
    if (!changed) throw notFound('No game has this id or slug.', 'game_not_found');
    await tellFeed(trx, changed.row, changed.before);
    return withGame(changed.row, game);
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
    const { game, changed } = await changeEntry(trx, accountId, segment, fields);
    if (!changed) throw entryNotFound();
    await tellFeed(trx, changed.row, changed.before);
    return withGame(changed.row, game);
  });
}

export async function findEntry(knex: Knex, accountId: string, game: FoundGame): Promise<EntryWithGame> {
  const row = await LibraryEntry.query(knex).findOne({ account_id: accountId, game_id: game.id });
  if (!row) throw entryNotFound();
  return withGame(row, game);
}

/** DELETE: the entry goes, and its feed items with it (a trigger of the table). */
export async function deleteEntry(knex: Knex, accountId: string, gameId: number): Promise<void> {
  const deleted = await LibraryEntry.query(knex).where({ account_id: accountId, game_id: gameId }).delete();
  if (deleted === 0) throw entryNotFound();
}
