// Avatar and banner with their history (spec: Profile picture history item). Uploading a picture makes
// it current and keeps the one before in the history; forgetting removes an earlier picture but never the
// current one, which only a new upload or clearing replaces.
import type { Knex } from 'knex';
import { conflict, notFound } from '../platform/errors.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from '../media/orphaned-media.js';
import { isUuid } from '../platform/validation/uuid.js';
import { PICTURE_HISTORY_LIMIT } from '../media/rows.js';
import { presentImage } from '../media/presenters.js';
import type { ImageRow } from '../media/models.js';

export const PICTURE_KINDS = ['AVATAR', 'BANNER'] as const;
export type PictureKind = (typeof PICTURE_KINDS)[number];

const PURPOSE: Record<PictureKind, 'avatar' | 'banner'> = { AVATAR: 'avatar', BANNER: 'banner' };
const COLUMN: Record<PictureKind, 'avatar_image_id' | 'banner_image_id'> = {
  AVATAR: 'avatar_image_id',
  BANNER: 'banner_image_id',
};
export const HISTORY_PAGE = { size: PICTURE_HISTORY_LIMIT, maxPage: 1 };

/** The storage keys of the current avatar and banner, for the profile answer. */
export async function currentPictureKeys(knex: Knex, accountId: string) {
  const row = await knex('profiles as p')
    .leftJoin('images as a', 'a.id', 'p.avatar_image_id')
    .leftJoin('images as b', 'b.id', 'p.banner_image_id')
    .where('p.account_id', accountId)
    .first('a.storage_key as avatar', 'b.storage_key as banner');
  return { avatar: (row?.avatar as string | null) ?? null, banner: (row?.banner as string | null) ?? null };
}

/** Earlier pictures of a kind, newest first; the current one is not among them. */
export async function pictureHistory(knex: Knex, accountId: string, kind: PictureKind, url: (key: string) => string) {
  const rows: ImageRow[] = await knex('images')
    .where({ account_id: accountId, purpose: PURPOSE[kind] })
    .whereNotExists(
      knex('profiles').where('profiles.account_id', accountId).whereRaw(`profiles.${COLUMN[kind]} = images.id`),
    )
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return rows.map((row) => ({ ...presentImage(row, url), kind }));
}

/** Forgets an earlier picture: 404 when none of the owner's, 409 `in_use` for the current one. */
export async function forgetPicture(knex: Knex, media: MediaStorage, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound('There is no picture with this id.');
  const [deleted]: Array<{ storage_key: string }> = await knex('images')
    .where({ id, account_id: accountId })
    .whereIn('purpose', ['avatar', 'banner'])
    .whereNotExists(
      knex('profiles')
        .where('profiles.account_id', accountId)
        .where((current) => current.where('avatar_image_id', id).orWhere('banner_image_id', id)),
    )
    .delete()
    .returning('storage_key');
  if (deleted) {
    await removeOrphans(knex, media, [deleted.storage_key]).catch(() => undefined);
    return;
  }
  const exists = await knex('images')
    .where({ id, account_id: accountId })
    .whereIn('purpose', ['avatar', 'banner'])
    .first('id');
  if (!exists) throw notFound('There is no picture with this id.');
  throw conflict('in_use', {}, 'This picture is on the profile now; upload or clear another first.');
}

/** Takes the current picture of a kind off the profile; it stays in the history. */
export async function clearPicture(knex: Knex, accountId: string, kind: PictureKind): Promise<void> {
  await knex('profiles')
    .where({ account_id: accountId })
    .update({ [COLUMN[kind]]: null, updated_at: knex.fn.now() });
}
