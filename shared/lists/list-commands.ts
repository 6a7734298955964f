// The owner's writes of lists (DECISIONS: Lists), each in its own transaction: the list, its items, its
// size and its feed item commit together or not at all. At most 1,000 lists per account, counted under a
// per-account advisory lock held to the end of the creating transaction, so parallel creations queue and
// exactly the places left are taken. A list's feed item takes its visibility from the list (the database
// keeps it), and leaves with the list (a trigger, which also deletes the comments on it); its items go by
// the foreign key's cascade.
import type { Knex } from 'knex';
import { fieldsInvalid } from '../content/content-rules.js';
import { addFeedItem } from '../content/feed-items.js';
import { loadGameRefs } from '../content/game-refs.js';
import { conflict } from '../platform/errors.js';
import {
  boardOf,
  changeBoard,
  listNotFound,
  listRemoved,
  refuseBlank,
  refuseItems,
  refuseTiers,
} from './list-rules.js';
import { ownShownList, type ShownList } from './load-list.js';
import { newPublicId } from './public-ids.js';
import { List, ListFolder, ListItem } from './models.js';
import {
  LISTS_PER_ACCOUNT,
  type ListChanges,
  type ListInput,
  type ListItemInput,
  type ListMode,
  type ListRow,
} from './rows.js';

/** The catalog's games among the items'. */
async function knownGames(knex: Knex | Knex.Transaction, items: ListItemInput[]): Promise<Set<number>> {
  if (items.length === 0) return new Set();
  const found = await loadGameRefs(
    knex as Knex,
    items.map((item) => item.game_id),
  );
  return new Set(found.keys());
}

/**
 * The owner's folder of public id `folder` (null: none), or 400 `fields_invalid` field `folder`. Held (FOR
 * SHARE) to the end of the transaction: a deletion of the folder at the same time waits, then moves this
 * list out with the others, instead of the list naming a folder that is gone.
 */
async function folderOf(trx: Knex.Transaction, ownerId: string, folder: string | null): Promise<string | null> {
  if (folder === null) return null;
  const row = await ListFolder.query(trx).select('id').findOne({ public_id: folder, account_id: ownerId }).forShare();
  if (!row) throw fieldsInvalid('folder', 'You have no folder with this id.');
  return row.id;
}

async function insertItems(trx: Knex.Transaction, listId: string, items: ListItemInput[]): Promise<void> {
  if (items.length === 0) return;
  await ListItem.query(trx).insert(
    items.map((item, index) => ({
      list_id: listId,
      position: index + 1,
      game_id: item.game_id,
      tier: item.tier ?? null,
    })),
  );
}

/** A new list by `ownerId` with its items, and its feed item. */
export async function createList(knex: Knex, ownerId: string, input: ListInput): Promise<ShownList> {
  refuseBlank('title', input.title);
  refuseTiers(input.mode, input.tiers);
  const board = boardOf(input.mode, input.tiers ?? null);
  refuseItems(input.items, input.mode, board, await knownGames(knex, input.items));
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`lists:${ownerId}`]);
    const folderId = await folderOf(trx, ownerId, input.folder);
    const count = await List.query(trx).where({ account_id: ownerId }).resultSize();
    if (count >= LISTS_PER_ACCOUNT) {
      throw conflict(
        'lists_full',
        { limit: LISTS_PER_ACCOUNT, count },
        `An account holds at most ${LISTS_PER_ACCOUNT} lists.`,
      );
    }
    const publicId = newPublicId();
    const { id } = await List.query(trx)
      .insert({
        account_id: ownerId,
        public_id: publicId,
        folder_id: folderId,
        title: input.title,
        description: input.description,
        visibility: input.visibility,
        mode: input.mode,
        tiers: board,
        preview_count: input.items.length,
      })
      .returning('id');
    await insertItems(trx, id, input.items);
    await addFeedItem(trx, { accountId: ownerId, kind: 'list', subjectId: id, gameId: null });
    return (await ownShownList(trx, ownerId, publicId))!;
  });
}

type LockedList = Pick<ListRow, 'id' | 'mode' | 'tiers' | 'removed_at'>;

/**
 * The owner's list of `id`, locked to the end of the transaction so two writes at once (or a write and a
 * removal) apply one after the other; 404 when it is not theirs, 403 `removed` when moderation removed it.
 */
async function lockOwnList(trx: Knex.Transaction, ownerId: string, id: string): Promise<LockedList> {
  const row = await List.query(trx)
    .select('id', 'mode', 'tiers', 'removed_at')
    .findOne({ public_id: id, account_id: ownerId })
    .forUpdate();
  if (!row) throw listNotFound();
  if (row.removed_at !== null) throw listRemoved();
  return row;
}

/**
 * Changes the fields sent of the owner's list. A mode or board change carries the games already placed
 * along (list-rules.ts changeBoard): leaving tier mode drops the tiers, the items' included.
 */
export async function updateList(knex: Knex, ownerId: string, id: string, changes: ListChanges): Promise<ShownList> {
  refuseBlank('title', changes.title);
  return knex.transaction(async (trx) => {
    const current = await lockOwnList(trx, ownerId, id);
    const { title, description, visibility, folder, mode, tiers } = changes;
    const fields: Record<string, unknown> = Object.fromEntries(
      Object.entries({ title, description, visibility }).filter(([, value]) => value !== undefined),
    );
    if (folder !== undefined) fields.folder_id = await folderOf(trx, ownerId, folder);
    if (mode !== undefined || tiers !== undefined) {
      const board = changeBoard(current, { mode, tiers });
      Object.assign(fields, { mode: board.mode, tiers: board.tiers });
      const items = () => ListItem.query(trx).where({ list_id: current.id });
      if (board.dropTiers) await items().patch({ tier: null });
      for (const move of board.moves) {
        await items().whereRaw('tier IS NOT DISTINCT FROM ?', [move.from]).patch({ tier: move.to });
      }
    }
    if (Object.keys(fields).length > 0) {
      await List.query(trx).findById(current.id).patch(fields);
    }
    return (await ownShownList(trx, ownerId, id))!;
  });
}

/** Replaces the owner's list's items, in the order sent; its size follows. */
export async function replaceListItems(
  knex: Knex,
  ownerId: string,
  id: string,
  items: ListItemInput[],
): Promise<ShownList> {
  return knex.transaction(async (trx) => {
    const current = await lockOwnList(trx, ownerId, id);
    const mode: ListMode = current.mode;
    refuseItems(items, mode, boardOf(mode, current.tiers), await knownGames(trx, items));
    await ListItem.query(trx).where({ list_id: current.id }).delete();
    await insertItems(trx, current.id, items);
    await List.query(trx).findById(current.id).patch({ preview_count: items.length });
    return (await ownShownList(trx, ownerId, id))!;
  });
}

/** Deletes the owner's list (removed or not); its items, feed items and the comments on it go with it. */
export async function deleteList(knex: Knex, ownerId: string, id: string): Promise<void> {
  const deleted = await List.query(knex).where({ public_id: id, account_id: ownerId }).delete();
  if (deleted === 0) throw listNotFound();
}
