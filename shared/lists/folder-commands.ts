// The owner's list folders (DECISIONS: Lists): created, renamed, deleted. At most 100 per account, counted
// under a per-account advisory lock as lists are. A deleted folder's lists move to no folder: the foreign
// key sets them so in the deleting statement, and they keep their own `updated_at` (the list did not change).
import type { Knex } from 'knex';
import { conflict } from '../platform/errors.js';
import { folderNotFound, refuseBlank } from './list-rules.js';
import { ListFolder } from './models.js';
import { newPublicId } from './public-ids.js';
import { FOLDERS_PER_ACCOUNT, type FolderRow } from './rows.js';

export async function createFolder(knex: Knex, ownerId: string, name: string): Promise<FolderRow> {
  refuseBlank('name', name);
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`list-folders:${ownerId}`]);
    const count = await ListFolder.query(trx).where({ account_id: ownerId }).resultSize();
    if (count >= FOLDERS_PER_ACCOUNT) {
      throw conflict(
        'folders_full',
        { limit: FOLDERS_PER_ACCOUNT, count },
        `An account holds at most ${FOLDERS_PER_ACCOUNT} list folders.`,
      );
    }
    return ListFolder.query(trx).insert({ account_id: ownerId, public_id: newPublicId(), name }).returning('*');
  });
}

export async function renameFolder(knex: Knex, ownerId: string, id: string, name: string): Promise<FolderRow> {
  refuseBlank('name', name);
  const [folder] = await ListFolder.query(knex)
    .where({ public_id: id, account_id: ownerId })
    .patch({ name })
    .returning('*');
  if (!folder) throw folderNotFound();
  return folder;
}

/** Deletes the owner's folder; the lists in it stay, in no folder. */
export async function deleteFolder(knex: Knex, ownerId: string, id: string): Promise<void> {
  const deleted = await ListFolder.query(knex).where({ public_id: id, account_id: ownerId }).delete();
  if (deleted === 0) throw folderNotFound();
}
