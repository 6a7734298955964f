// The daily media.cleanup (also `npm run op -- media cleanup`): layout images no layout has named for 7
// days, uploads whose worker never finished, the files of deleted captures no layout names, storage
// objects no row points at, and the temporary files of writes that died. Every step on rows is a DELETE
// ... RETURNING, so two runs at once share the work instead of doing it twice (two sweeps of temporary
// files at once may both try one file: removing a missing file is no error).
import type { Knex } from 'knex';
import { releaseUnnamedCaptureFiles } from './capture-files.js';
import { removeUnnamedLayoutImages } from './layout-images.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOldOrphans, removeOrphans } from './orphaned-media.js';
import { StagedUpload } from './models.js';

/** An upload or a claimed object this old belongs to no running job (image.process expires in 2 minutes). */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

export interface CleanupReport {
  unnamed_layout_images: number;
  abandoned_uploads: number;
  /** Objects no row points at any more, the files of deleted captures no layout names among them. */
  orphaned_objects: number;
  /** Temporary files of writes that never finished (a worker killed mid-write), untouched for an hour. */
  stale_temporary_files: number;
}

export async function cleanMediaNow(knex: Knex, media: MediaStorage): Promise<CleanupReport> {
  const unnamed = await removeUnnamedLayoutImages(knex, media);
  // Deleting an upload row queues its staged object (trigger), which the next step removes.
  const abandoned = await StagedUpload.query(knex)
    .where('created_at', '<', knex.raw('now() - make_interval(secs => ?)', [ABANDONED_AFTER_MS / 1000]))
    .delete()
    .returning('staging_key');
  await removeOrphans(
    knex,
    media,
    abandoned.map((row) => row.staging_key),
  );
  const captureFiles = await releaseUnnamedCaptureFiles(knex, media);
  // Younger keys may be claimed by a job that is writing them right now.
  const orphans = await removeOldOrphans(knex, media, ABANDONED_AFTER_MS);
  // No row or queue entry names these (their names are random, known only to the write that died); the
  // same hour bounds them, long past any live write (image.process expires in 2 minutes).
  const temporary = await media.sweepTemporary(ABANDONED_AFTER_MS);
  return {
    unnamed_layout_images: unnamed,
    abandoned_uploads: abandoned.length,
    orphaned_objects: captureFiles + orphans,
    stale_temporary_files: temporary,
  };
}
