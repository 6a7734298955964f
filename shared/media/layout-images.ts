// Layout images (spec: Layout image): the owner's list with `in_use` and the quota, deleting one, the
// `media` map of a layout, and the 7-day removal of images no layout names. Whether a layout names an
// image is answered by PostgreSQL's jsonpath over the stored documents, so listing, deleting and cleaning
// up all read the same rule without loading the documents into the process.
import type { Knex } from 'knex';
import { raw } from 'objection';
import { conflict, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from './orphaned-media.js';
import type { StoredImage } from './rows.js';
import { presentImage } from './presenters.js';
import { LAYOUT_QUOTA } from './rows.js';
import { Image } from './models.js';

/** Days an image may go unnamed by every layout before media.cleanup removes it. */
export const UNNAMED_DAYS = 7;

// `$.**` visits every level of the document; image references are the only objects with kind "media".
const NAMES_IMAGE = `$.** \\? (@.kind == "media" && @.id == $id)`;

/** SQL that is true when the layout row `l` names image `i` in its draft or its published copy. */
const namedBy = (layout: string, image: string) => `(
  jsonb_path_exists(${layout}.draft, '${NAMES_IMAGE}', jsonb_build_object('id', ${image}.id::text))
  OR jsonb_path_exists(coalesce(${layout}.published, 'null'), '${NAMES_IMAGE}', jsonb_build_object('id', ${image}.id::text))
)`;
const IN_USE = `EXISTS (SELECT 1 FROM profile_layouts l WHERE l.account_id = i.account_id AND ${namedBy('l', 'i')})`;

export async function layoutQuotaIn(knex: Knex, accountId: string) {
  const row = await Image.query(knex)
    .where({ account_id: accountId, purpose: 'layout' })
    .select(raw('count(*)::int AS count'), raw('coalesce(sum(bytes), 0)::bigint AS bytes'))
    .first()
    .castTo<{ count: number; bytes: number } | undefined>();
  return { ...LAYOUT_QUOTA, count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** Whether an account may start another upload (the worker checks again with the encoded size). */
export function quotaFull(quota: { count: number; bytes: number }): boolean {
  return quota.count >= LAYOUT_QUOTA.limit || quota.bytes >= LAYOUT_QUOTA.bytes_limit;
}

export async function listLayoutImages(knex: Knex, accountId: string, url: (key: string) => string) {
  const rows = await Image.query(knex)
    .alias('i')
    .select('i.*', raw(`${IN_USE} AS in_use`))
    .where({ 'i.account_id': accountId, 'i.purpose': 'layout' })
    .orderBy([
      { column: 'i.created_at', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ])
    .castTo<Array<Image & { in_use: boolean }>>();
  const quota = await layoutQuotaIn(knex, accountId);
  return { data: rows.map((row) => ({ ...presentImage(row, url), in_use: row.in_use })), quota };
}

/** Deletes one of the owner's layout images: 404 when none of theirs, 409 `in_use` unless forced. */
export async function deleteLayoutImage(
  knex: Knex,
  media: MediaStorage,
  accountId: string,
  id: string,
  force: boolean,
): Promise<void> {
  if (!isUuid(id)) throw notFound('There is no layout image with this id.');
  // SQL kept: one statement checks the use and deletes, so a layout saved meanwhile cannot slip in between.
  const { rows } = await knex.raw<{ rows: Array<{ storage_key: string }> }>(
    `DELETE FROM images i WHERE i.id = ? AND i.account_id = ? AND i.purpose = 'layout' AND (? OR NOT ${IN_USE})
     RETURNING i.storage_key`,
    [id, accountId, force],
  );
  if (rows.length === 0) {
    const exists = await Image.query(knex).findOne({ id, account_id: accountId, purpose: 'layout' }).select('id');
    if (!exists) throw notFound('There is no layout image with this id.');
    throw conflict('in_use', {}, 'A layout names this image; send force=true to delete it anyway.');
  }
  await removeOrphans(knex, media, [rows[0].storage_key]).catch(() => undefined);
}

/** The `media` map of a layout answer: id to {url, width, height, animated}. */
export async function layoutMediaMap(
  knex: Knex,
  accountId: string,
  url: (key: string) => string,
  onlyIds?: string[],
): Promise<Record<string, Pick<StoredImage, 'url' | 'width' | 'height' | 'animated'>>> {
  if (onlyIds && onlyIds.length === 0) return {};
  const query = Image.query(knex).where({ account_id: accountId, purpose: 'layout' }).orderBy('created_at', 'desc');
  if (onlyIds) query.whereIn('id', onlyIds.filter(isUuid));
  const rows = await query;
  return Object.fromEntries(
    rows.map((row) => [
      row.id,
      { url: url(row.storage_key), width: row.width, height: row.height, animated: row.animated },
    ]),
  );
}

/** The media ids a layout document names, for a visitor's map (only the published copy counts there). */
export function namedMediaIds(document: unknown): string[] {
  const ids = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    if (object.kind === 'media' && typeof object.id === 'string') ids.add(object.id);
    Object.values(object).forEach(visit);
  };
  visit(document);
  return [...ids];
}

/**
 * Called before a layout changes: the images its current draft and published copy name were named until
 * now. Without this, an image dropped from a layout saved long ago would look unnamed for that long.
 */
export async function touchNamedImages(knex: Knex, accountId: string): Promise<void> {
  // SQL kept: one UPDATE ... FROM reads the layout row and stamps its images, with no documents in the process.
  await knex.raw(
    `UPDATE images i SET last_named_at = now() FROM profile_layouts l
      WHERE l.account_id = ? AND i.account_id = l.account_id AND i.purpose = 'layout' AND ${namedBy('l', 'i')}`,
    [accountId],
  );
}

/** Removes layout images no layout has named for UNNAMED_DAYS days; answers how many. */
export async function removeUnnamedLayoutImages(knex: Knex, media: MediaStorage): Promise<number> {
  // SQL kept: the delete itself decides that no layout names the image, so one named meanwhile stays.
  const { rows } = await knex.raw<{ rows: Array<{ storage_key: string }> }>(
    `DELETE FROM images i
      WHERE i.purpose = 'layout'
        AND coalesce(i.last_named_at, i.created_at) < now() - make_interval(days => ?)
        AND NOT ${IN_USE}
      RETURNING i.storage_key`,
    [UNNAMED_DAYS],
  );
  await removeOrphans(
    knex,
    media,
    rows.map((row) => row.storage_key),
  );
  return rows.length;
}
