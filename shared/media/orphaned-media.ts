// Storage objects that no row points at any more (see the images migration): deleted from storage
// first, then forgotten, so a crash between the two only means deleting a missing object again.
import type { Knex } from 'knex';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { OrphanedMedia } from './models.js';

/** Deletes the given queued objects now; what fails stays queued for media.cleanup. */
export async function removeOrphans(knex: Knex, media: MediaStorage, keys: string[]): Promise<number> {
  let removed = 0;
  for (const key of keys) {
    await media.delete(key);
    await OrphanedMedia.query(knex).deleteById(key);
    removed += 1;
  }
  return removed;
}

/**
 * Deletes queued objects older than `olderThanMs` (younger ones may still be claimed by a running job).
 * Each batch is locked with SKIP LOCKED, so two cleanups running at once split the work.
 */
export async function removeOldOrphans(
  knex: Knex,
  media: MediaStorage,
  olderThanMs: number,
  batch = 100,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const count = await knex.transaction(async (trx) => {
      const rows = await OrphanedMedia.query(trx)
        .where('created_at', '<', trx.raw('now() - make_interval(secs => ?)', [olderThanMs / 1000]))
        .orderBy('created_at')
        .limit(batch)
        .forUpdate()
        .skipLocked()
        .select('storage_key');
      return deleteLocked(trx, media, rows);
    });
    removed += count;
    if (count < batch) return removed;
  }
}

/**
 * Deletes at once the objects among `keys` that are still queued, i.e. claimed by a write whose row never
 * committed (a row that takes a key drops its queue entry in the same commit): a worker whose upload fails
 * after storing some of its files removes them now, so none is served until the next media.cleanup. The
 * queue entries are locked while their files go, and a key whose entry is gone (its row committed, even if
 * the commit's answer was lost) is kept. What fails here stays queued for media.cleanup.
 */
export async function removeUnrecorded(knex: Knex, media: MediaStorage, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  return knex.transaction(async (trx) => {
    const rows = await OrphanedMedia.query(trx).whereIn('storage_key', keys).forUpdate().select('storage_key');
    return deleteLocked(trx, media, rows);
  });
}

/** Deletes the files of queue entries this transaction holds locked, then the entries; how many went. */
async function deleteLocked(trx: Knex.Transaction, media: MediaStorage, rows: Array<{ storage_key: string }>) {
  const keys = rows.map((row) => row.storage_key);
  for (const key of keys) await media.delete(key);
  await OrphanedMedia.query(trx).whereIn('storage_key', keys).delete();
  return keys.length;
}
