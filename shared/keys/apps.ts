// App commands and reads. Every read and change is scoped to the owner: another account's app is 404.
import type { Knex } from 'knex';
import { raw } from 'objection';
import { claimAccountPlace } from '../accounts/account-limits.js';
import { conflict, notFound } from '../platform/errors.js';
import { ApiKey, App } from './models.js';
import { Image } from '../media/models.js';
import type { Scope } from './scopes.js';
import { isUuid } from '../platform/validation/uuid.js';
import { appIconUrls } from '../media/app-icons.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from '../media/orphaned-media.js';
import type { AppStats } from './rows.js';

export const APPS_PER_ACCOUNT = 10;

export function appNotFound() {
  return notFound('No app of yours has this id.', 'app_not_found');
}

export async function findOwnApp(knex: Knex | Knex.Transaction, accountId: string, appId: string): Promise<App> {
  const app = isUuid(appId) ? await App.query(knex).findOne({ id: appId, account_id: accountId }) : undefined;
  if (!app) throw appNotFound();
  return app;
}

/**
 * Live key counts, last use and icons of several apps, in two queries whatever their number. Their Arcade
 * summaries are Arcade's to add (shared/arcade/app-stats.ts).
 */
export async function appStats(knex: Knex, media: MediaStorage, appIds: string[]): Promise<Map<string, AppStats>> {
  const icons = await appIconUrls(knex, media, appIds);
  const stats = new Map<string, AppStats>(
    appIds.map((id) => [id, { active_keys: 0, last_used_at: null, icon_url: icons.get(id) ?? null }]),
  );
  if (appIds.length === 0) return stats;
  const rows = await ApiKey.query(knex)
    .select('app_id')
    .select(
      raw(
        'count(*) FILTER (WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()))::int AS active_keys',
      ),
    )
    .select(raw('max(last_used_at) AS last_used_at'))
    .whereIn('app_id', appIds)
    .groupBy('app_id')
    .castTo<Array<{ app_id: string; active_keys: number; last_used_at: Date | null }>>();
  for (const row of rows) Object.assign(stats.get(row.app_id)!, row);
  return stats;
}

export async function listApps(knex: Knex, accountId: string): Promise<App[]> {
  return App.query(knex)
    .where({ account_id: accountId })
    .orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]);
}

export async function createApp(
  knex: Knex,
  accountId: string,
  input: { name: string; description?: string },
): Promise<App> {
  return knex.transaction(async (trx) => {
    await claimAccountPlace(trx, accountId, {
      table: 'apps',
      limit: APPS_PER_ACCOUNT,
      reason: 'app_limit_reached',
      noun: 'apps',
    });
    return App.query(trx).insertAndFetch({
      account_id: accountId,
      name: input.name,
      description: input.description ?? '',
      scopes: [],
    });
  });
}

export interface AppChanges {
  name?: string;
  description?: string;
  /** The full set: anything left out is removed. */
  scopes?: Scope[];
}

export async function updateApp(knex: Knex, accountId: string, appId: string, changes: AppChanges): Promise<App> {
  const app = await findOwnApp(knex, accountId, appId);
  if (Object.keys(changes).length === 0) return app;
  return app.$query(knex).patchAndFetch(changes);
}

export async function deleteApp(knex: Knex, media: MediaStorage, accountId: string, appId: string): Promise<void> {
  const app = await findOwnApp(knex, accountId, appId);
  // By table name: Arcade's models sit above keys (a game is enabled on an app).
  const game = await knex('arcade_apps').where({ app_id: app.id }).whereNot({ status: 'removed' }).first('slug');
  if (game) {
    throw conflict('remove_from_arcade_first', {}, `Remove the Arcade game ${game.slug} before deleting its app.`);
  }
  const icons = await Image.query(knex).where({ app_id: app.id }).select('storage_key');
  // Its keys and icon go with it (ON DELETE CASCADE), so the keys stop on the very next request.
  await App.query(knex).deleteById(app.id);
  await removeOrphans(
    knex,
    media,
    icons.map((icon) => icon.storage_key),
  ).catch(() => undefined);
}
