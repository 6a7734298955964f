// The owner's list folders (DECISIONS: Lists): created, renamed, deleted. At most 100 per account, counted
// under a per-account advisory lock as lists are. A deleted folder's lists move to no folder: the foreign
// key sets them so in the deleting statement, and they keep their own `updated_at` (the list did not change).
import type { Knex } from 'knex';
import { conflict } from '../platform/errors.js';
import { folderNotFound, refuseBlank } from './list-rules.js';
import { newPublicId } from './public-ids.js';
import { FOLDERS_PER_ACCOUNT, type FolderRow } from './rows.js';

export async function createFolder(knex: Knex, ownerId: string, name: string): Promise<FolderRow> {
  refuseBlank('name', name);
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`list-folders:${ownerId}`]);
    const { count } = await trx('list_folders').where({ account_id: ownerId }).first(trx.raw('count(*)::int AS count'));
    if (count >= FOLDERS_PER_ACCOUNT) {
      throw conflict(
        'folders_full',
        { limit: FOLDERS_PER_ACCOUNT, count },
        `An account holds at most ${FOLDERS_PER_ACCOUNT} list folders.`,
      );
    }
    const [folder] = await trx('list_folders')
      .insert({ account_id: ownerId, public_id: newPublicId(), name })
      .returning('*');
    return folder as FolderRow;
  });
}

export async function renameFolder(knex: Knex, ownerId: string, id: string, name: string): Promise<FolderRow> {
  refuseBlank('name', name);
  const [folder] = await knex('list_folders')
    .where({ public_id: id, account_id: ownerId })
    .update({ name, updated_at: knex.fn.now() })
    .returning('*');
  if (!folder) throw folderNotFound();
  return folder as FolderRow;
}

/** Deletes the owner's folder; the lists in it stay, in no folder. */
export async function deleteFolder(knex: Knex, ownerId: string, id: string): Promise<void> {
  const deleted = await knex('list_folders').where({ public_id: id, account_id: ownerId }).delete();
  if (deleted === 0) throw folderNotFound();
}
