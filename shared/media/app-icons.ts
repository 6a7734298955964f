// App icons (spec: POST/DELETE /account/apps/{id}/icon): one per app, an image row that goes with its
// app. The answer's `icon_url` comes from here for every app answer.
import type { Knex } from 'knex';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { Image } from './models.js';
import { removeOrphans } from './orphaned-media.js';

/** Icon URLs of the given apps (absent: no icon). */
export async function appIconUrls(knex: Knex, media: MediaStorage, appIds: string[]): Promise<Map<string, string>> {
  if (appIds.length === 0) return new Map();
  const rows = await Image.query(knex)
    .where({ purpose: 'app_icon' })
    .whereIn('app_id', appIds)
    .select('app_id', 'storage_key');
  return new Map(rows.map((row) => [row.app_id!, media.url(row.storage_key)]));
}

/** Removes an app's icon; removing none is not an error. */
export async function removeAppIcon(knex: Knex, media: MediaStorage, appId: string): Promise<void> {
  const deleted = await Image.query(knex)
    .where({ app_id: appId, purpose: 'app_icon' })
    .delete()
    .returning('storage_key');
  await removeOrphans(
    knex,
    media,
    deleted.map((row) => row.storage_key),
  ).catch(() => undefined);
}
