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
import { Image } from '../media/models.js';
import { Profile } from './models.js';

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
  const row = await Profile.query(knex)
    .alias('p')
    .leftJoinRelated('[avatar, banner]', { aliases: { avatar: 'a', banner: 'b' } })
    .where('p.account_id', accountId)
    .select('a.storage_key as avatar', 'b.storage_key as banner')
    .first()
    .castTo<{ avatar: string | null; banner: string | null } | undefined>();
  return { avatar: row?.avatar ?? null, banner: row?.banner ?? null };
}

/** Earlier pictures of a kind, newest first; the current one is not among them. */
export async function pictureHistory(knex: Knex, accountId: string, kind: PictureKind, url: (key: string) => string) {
  const rows = await Image.query(knex)
    .where({ account_id: accountId, purpose: PURPOSE[kind] })
    .whereNotExists(
      Profile.query(knex).where('profiles.account_id', accountId).whereColumn(`profiles.${COLUMN[kind]}`, 'images.id'),
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
  const [deleted] = await Image.query(knex)
    .where({ id, account_id: accountId })
    .whereIn('purpose', ['avatar', 'banner'])
    .whereNotExists(
      Profile.query(knex)
        .where('profiles.account_id', accountId)
        .where((current) => current.where('avatar_image_id', id).orWhere('banner_image_id', id)),
    )
    .delete()
    .returning('storage_key');
  if (deleted) {
    await removeOrphans(knex, media, [deleted.storage_key]).catch(() => undefined);
    return;
  }
  const exists = await Image.query(knex)
    .select('id')
    .where({ id, account_id: accountId })
    .whereIn('purpose', ['avatar', 'banner'])
    .first();
  if (!exists) throw notFound('There is no picture with this id.');
  throw conflict('in_use', {}, 'This picture is on the profile now; upload or clear another first.');
}

/** Takes the current picture of a kind off the profile; it stays in the history. */
export async function clearPicture(knex: Knex, accountId: string, kind: PictureKind): Promise<void> {
  await Profile.query(knex)
    .findById(accountId)
    .patch({ [COLUMN[kind]]: null });
}
