// What an upload becomes once its image is encoded and stored: the `images` row, recorded in one
// transaction with what the purpose changes (the profile's current picture, the app's icon), after the
// rules that only the worker can check (the layout quota counts the encoded bytes).
import type { Knex } from 'knex';
import { layoutQuotaIn } from './layout-images.js';
import { LAYOUT_QUOTA, PICTURE_HISTORY_LIMIT, type EncodedImage, type LayoutQuota } from './rows.js';
import { Image, OrphanedMedia, StagedUpload, type ImageRow } from './models.js';

/** `replaced`: files of rows this recording deleted (an old icon, pictures past the history). */
export type RecordOutcome = { row: ImageRow; replaced: string[] } | { quota: LayoutQuota } | { gone: true };

/**
 * Records the stored image of `uploadId` in one transaction: the upload row is locked first, so an
 * upload the route gave up on (its row deleted) records nothing, and the claim on the stored object in
 * orphaned_media is dropped only when its row commits.
 */
export async function recordImage(
  knex: Knex,
  uploadId: string,
  storageKey: string,
  image: EncodedImage,
): Promise<RecordOutcome> {
  return knex.transaction(async (trx) => {
    // The account first, as deleting an account does (it cascades to uploads): no deadlock between the
    // two. One account's uploads are recorded one at a time, so two cannot both squeeze under the quota.
    await trx.raw(
      'SELECT a.id FROM accounts a JOIN image_uploads u ON u.account_id = a.id WHERE u.id = ? FOR UPDATE OF a',
      [uploadId],
    );
    const upload = await StagedUpload.query(trx).findById(uploadId).forUpdate();
    if (!upload) return { gone: true as const };
    if (upload.purpose === 'layout') {
      const quota = await layoutQuotaIn(trx, upload.account_id);
      if (quota.count >= LAYOUT_QUOTA.limit || quota.bytes + image.bytes > LAYOUT_QUOTA.bytes_limit) {
        return { quota };
      }
    }
    let replaced: string[] = [];
    if (upload.purpose === 'app_icon') {
      const old = await Image.query(trx)
        .where({ app_id: upload.app_id, purpose: 'app_icon' })
        .delete()
        .returning('storage_key');
      replaced = old.map((row) => row.storage_key);
    }
    const row = await Image.query(trx)
      .insert({
        // The image takes the upload's id, so a route that gave up can still find what its upload became.
        id: upload.id,
        account_id: upload.account_id,
        app_id: upload.app_id,
        purpose: upload.purpose,
        storage_key: storageKey,
        content_type: image.contentType,
        width: image.width,
        height: image.height,
        bytes: image.bytes,
        animated: image.animated,
      })
      .returning('*');
    if (upload.purpose === 'avatar' || upload.purpose === 'banner') replaced = await makeCurrentPicture(trx, row);
    await OrphanedMedia.query(trx).deleteById(storageKey);
    // Done in the same commit: from here on the route sees the image, never an upload still running.
    await StagedUpload.query(trx).deleteById(upload.id);
    return { row, replaced };
  });
}

async function makeCurrentPicture(trx: Knex.Transaction, row: ImageRow): Promise<string[]> {
  const column = row.purpose === 'avatar' ? 'avatar_image_id' : 'banner_image_id';
  // By its table: the profile's model (profiles/models.ts) sits above media, whose images it reads.
  await trx('profiles')
    .insert({ account_id: row.account_id, [column]: row.id })
    .onConflict('account_id')
    .merge({ [column]: row.id, updated_at: trx.fn.now() });
  // The history keeps the newest pictures besides the current one.
  const trimmed = await Image.query(trx)
    .where({ account_id: row.account_id, purpose: row.purpose })
    .whereNot({ id: row.id })
    .whereNotIn(
      'id',
      Image.query(trx)
        .select('id')
        .where({ account_id: row.account_id, purpose: row.purpose })
        .whereNot({ id: row.id })
        .orderBy('created_at', 'desc')
        .limit(PICTURE_HISTORY_LIMIT),
    )
    .delete()
    .returning('storage_key');
  return trimmed.map((old) => old.storage_key);
}
