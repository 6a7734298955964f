// What a capture's upload becomes once its files are stored (DECISIONS: Screenshots): the `screenshots`
// row and its feed item, recorded by the worker in one transaction after the quota, which only the worker
// can check (it counts the stored size). The capture takes its upload's id, so a route that gave up waiting
// can still find what its upload became.
import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { addFeedItem } from '../content/feed-items.js';
import type { EncodedImage, LayoutQuota } from '../media/rows.js';
import { quotaTakes } from './capture-rules.js';
import { captureQuotaIn } from './load-capture.js';
import { OrphanedMedia, StagedUpload } from '../media/models.js';
import { Screenshot } from './models.js';

export type CaptureOutcome = { id: string } | { quota: LayoutQuota } | { gone: true };

export interface CaptureFiles {
  key: string;
  thumbnailKey: string;
  image: EncodedImage;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The id clients name a capture by: 12 letters and digits (about 62 bits), as layouts reference it. */
export function newPublicId(): string {
  return Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/**
 * Records the capture of `uploadId`. The account is locked first, as recording an image does (and as
 * deleting an account does, which cascades to uploads): one account's captures are recorded one at a time,
 * so parallel uploads cannot all squeeze under the quota. An upload the route gave up on (its row deleted)
 * records nothing.
 */
export async function recordCapture(knex: Knex, uploadId: string, files: CaptureFiles): Promise<CaptureOutcome> {
  const { image, key, thumbnailKey } = files;
  const thumbnail = image.thumbnail!;
  return knex.transaction(async (trx) => {
    await trx.raw(
      'SELECT a.id FROM accounts a JOIN image_uploads u ON u.account_id = a.id WHERE u.id = ? FOR UPDATE OF a',
      [uploadId],
    );
    const upload = await StagedUpload.query(trx).findById(uploadId).forUpdate();
    if (!upload) return { gone: true as const };
    const bytes = image.bytes + thumbnail.bytes;
    const quota = await captureQuotaIn(trx, upload.account_id);
    if (!quotaTakes(quota, bytes)) return { quota };
    const fields = upload.capture!;
    await Screenshot.query(trx).insert({
      id: upload.id,
      account_id: upload.account_id,
      public_id: newPublicId(),
      game_id: fields.game_id,
      description: fields.description,
      visibility: fields.visibility,
      contains_spoilers: fields.contains_spoilers,
      sensitive: image.sensitive,
      image_key: key,
      image_width: image.width,
      image_height: image.height,
      thumbnail_key: thumbnailKey,
      thumbnail_width: thumbnail.width,
      thumbnail_height: thumbnail.height,
      bytes,
    });
    await addFeedItem(trx, {
      accountId: upload.account_id,
      kind: 'screenshot',
      subjectId: upload.id,
      gameId: fields.game_id,
    });
    await OrphanedMedia.query(trx).whereIn('storage_key', [key, thumbnailKey]).delete();
    // Done in the same commit: from here on the route sees the capture, never an upload still running.
    await StagedUpload.query(trx).deleteById(upload.id);
    return { id: upload.id };
  });
}
