// What an upload becomes once its image is encoded and stored: the `images` row, recorded in one
// transaction with what the purpose changes (the profile's current picture, the app's icon), after the
// rules that only the worker can check (the layout quota counts the encoded bytes).
import type { Knex } from 'knex';
import type { ImageRefusalReason } from './image-refusals.js';
import type { ImageProfileName } from './image-profiles.js';
import type { EncodedImage } from './image-thread.js';
import type { LayoutQuota } from './image-uploads.js';
import { LAYOUT_QUOTA, layoutQuotaIn } from './layout-images.js';

export const IMAGE_PURPOSES = [
  'layout',
  'avatar',
  'banner',
  'app_icon',
  'arcade_icon',
  'arcade_tile',
  'arcade_cover',
  'arcade_screenshot',
] as const;
export type ImagePurpose = (typeof IMAGE_PURPOSES)[number];

/**
 * The output rules and storage folder of each purpose. Avatars and icons follow the spec's avatar rules;
 * a banner spans the page, so it follows the layout image rules (fit 1600x1600) instead. Arcade store-page
 * images follow the spec's slot rules: icons and tiles as avatars, covers and screenshots as layout images
 * that may not animate (the `still` profile). Only their own routes give them meaning: recording one
 * replaces nothing, as the store page's revisions decide which are in use.
 */
export const PURPOSES: Record<ImagePurpose, { profile: ImageProfileName; folder: string }> = {
  layout: { profile: 'layout', folder: 'layout' },
  avatar: { profile: 'avatar', folder: 'avatars' },
  banner: { profile: 'layout', folder: 'banners' },
  app_icon: { profile: 'avatar', folder: 'icons' },
  arcade_icon: { profile: 'avatar', folder: 'arcade/icons' },
  arcade_tile: { profile: 'avatar', folder: 'arcade/tiles' },
  arcade_cover: { profile: 'still', folder: 'arcade/covers' },
  arcade_screenshot: { profile: 'still', folder: 'arcade/screenshots' },
};

/** Earlier avatars and banners kept per kind; older ones are forgotten as new ones arrive. */
export const PICTURE_HISTORY_LIMIT = 10;

export interface UploadRow {
  id: string;
  account_id: string;
  purpose: ImagePurpose;
  app_id: string | null;
  staging_key: string;
}

export interface ImageRow {
  id: string;
  account_id: string;
  purpose: ImagePurpose;
  storage_key: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  animated: boolean;
  created_at: Date;
}

/** What the API shows of a stored image. */
export interface StoredImage {
  id: string;
  url: string;
  width: number;
  height: number;
  bytes: number;
  animated: boolean;
  created_at: string;
}

/** The worker's answer to the waiting route. */
export type ImageJobAnswer =
  | { image: StoredImage }
  | { refused: { reason: ImageRefusalReason; message: string } }
  | { quota: LayoutQuota }
  | { screeningUnavailable: string }
  | { failed: string };

export function presentImage(row: ImageRow, url: (key: string) => string): StoredImage {
  return {
    id: row.id,
    url: url(row.storage_key),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    animated: row.animated,
    created_at: new Date(row.created_at).toISOString(),
  };
}

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
    const upload: UploadRow | undefined = await trx('image_uploads').where({ id: uploadId }).forUpdate().first();
    if (!upload) return { gone: true as const };
    if (upload.purpose === 'layout') {
      const quota = await layoutQuotaIn(trx, upload.account_id);
      if (quota.count >= LAYOUT_QUOTA.limit || quota.bytes + image.bytes > LAYOUT_QUOTA.bytes_limit) {
        return { quota };
      }
    }
    let replaced: string[] = [];
    if (upload.purpose === 'app_icon') {
      const old: Array<{ storage_key: string }> = await trx('images')
        .where({ app_id: upload.app_id, purpose: 'app_icon' })
        .delete()
        .returning('storage_key');
      replaced = old.map((row) => row.storage_key);
    }
    const [row]: ImageRow[] = await trx('images')
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
    await trx('orphaned_media').where({ storage_key: storageKey }).delete();
    // Done in the same commit: from here on the route sees the image, never an upload still running.
    await trx('image_uploads').where({ id: upload.id }).delete();
    return { row, replaced };
  });
}

async function makeCurrentPicture(trx: Knex.Transaction, row: ImageRow): Promise<string[]> {
  const column = row.purpose === 'avatar' ? 'avatar_image_id' : 'banner_image_id';
  await trx('profiles')
    .insert({ account_id: row.account_id, [column]: row.id })
    .onConflict('account_id')
    .merge({ [column]: row.id, updated_at: trx.fn.now() });
  // The history keeps the newest pictures besides the current one.
  const trimmed: Array<{ storage_key: string }> = await trx('images')
    .where({ account_id: row.account_id, purpose: row.purpose })
    .whereNot({ id: row.id })
    .whereNotIn(
      'id',
      trx('images')
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
