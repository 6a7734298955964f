// The owner's copies written (DECISIONS: Library): create, change, delete. At most 20 copies per account and
// game: the count is taken under a lock on that pair, held to the end of the transaction, so parallel
// creations (or moves into the game) pass exactly as many as there are free places. Another account's copy,
// or an id that is not one, is 404 `copy_not_found`.
import type { Knex } from 'knex';
import { gameInBody, refuseForeignPlatform, type GameRef } from '../content/game-refs.js';
import { conflict, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { Game } from '../catalog/models.js';
import { LibraryCopy } from './models.js';
import type { CopyFormat, CopyRow } from './rows.js';

export const COPIES_PER_GAME = 20;
export const COPY_NOTE_MAX = 200;

export interface CopyFields {
  game_id: number;
  platform_id: number | null;
  format: CopyFormat;
  note: string;
}

const copyNotFound = () => notFound('No copy of yours has this id.', 'copy_not_found');

/** Takes the lock of the account's copies of one game, then refuses when they are already 20. */
async function claimCopyPlace(trx: Knex.Transaction, accountId: string, gameId: number): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`library-copies:${accountId}:${gameId}`]);
  const count = await LibraryCopy.query(trx).where({ account_id: accountId, game_id: gameId }).resultSize();
  if (count >= COPIES_PER_GAME) {
    throw conflict(
      'copies_full',
      { limit: COPIES_PER_GAME, count },
      `You hold at most ${COPIES_PER_GAME} copies of a game.`,
    );
  }
}

export async function createCopy(
  knex: Knex,
  accountId: string,
  input: Pick<CopyFields, 'game_id' | 'format'> & Partial<CopyFields>,
): Promise<CopyRow> {
  const game = await gameInBody(knex, input.game_id);
  refuseForeignPlatform(game, input.platform_id);
  return knex.transaction(async (trx) => {
    await claimCopyPlace(trx, accountId, game.id);
    return LibraryCopy.query(trx)
      .insert({
        account_id: accountId,
        game_id: game.id,
        platform_id: input.platform_id ?? null,
        format: input.format,
        note: input.note ?? '',
      })
      .returning('*');
  });
}

/** The catalog's row of a copy's game; a game the catalog lost has no platforms left to match. */
async function gameOfCopy(knex: Knex, gameId: number): Promise<GameRef> {
  const row = await Game.query(knex).select('id', 'slug', 'name', 'platform_ids', 'cover_image_id').findById(gameId);
  return row ?? { id: gameId, slug: '', name: '', platform_ids: [], cover_image_id: null };
}

/**
 * Changes the fields sent. A new game must be the catalog's and have a free place; the platform (sent, or
 * kept when only the game changes) must be the game's.
 */
export async function updateCopy(
  knex: Knex,
  accountId: string,
  id: string,
  changes: Partial<CopyFields>,
): Promise<CopyRow> {
  if (!isUuid(id)) throw copyNotFound();
  const newGame = changes.game_id === undefined ? null : await gameInBody(knex, changes.game_id);
  return knex.transaction(async (trx) => {
    const copy = await LibraryCopy.query(trx).findOne({ id, account_id: accountId }).forUpdate();
    if (!copy) throw copyNotFound();
    const moves = newGame !== null && newGame.id !== copy.game_id;
    if (changes.platform_id !== undefined || moves) {
      const platformId = changes.platform_id !== undefined ? changes.platform_id : copy.platform_id;
      refuseForeignPlatform(newGame ?? (await gameOfCopy(trx, copy.game_id)), platformId);
    }
    if (moves) await claimCopyPlace(trx, accountId, newGame.id);
    if (Object.keys(changes).length === 0) return copy;
    const [row] = await LibraryCopy.query(trx).where({ id }).patch(changes).returning('*');
    return row;
  });
}

export async function deleteCopy(knex: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw copyNotFound();
  const deleted = await LibraryCopy.query(knex).where({ id, account_id: accountId }).delete();
  if (deleted === 0) throw copyNotFound();
}
