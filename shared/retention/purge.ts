// The retention purge (`retention.purge`, daily; `npm run op -- retention purge` runs it now): what the
// service keeps only for a while. Each part is a plain delete of rows past their time, so a second run
// changes nothing and two runs at once only race to delete the same rows.
// - Removed Arcade games after 180 days (spec Limits): the game's rows go (store pages, releases, checks,
//   timeline, plays, grants, data events); its store-page images go with them; its slug and origins stay
//   claimed forever (arcade_claims has no end).
// - Username aliases past their 30 days (a claim of the name also deletes them; these are the unclaimed).
// - Development URLs expired more than 7 days ago: until then the owner still reads `expired` and a launch
//   still says override_expired rather than override_not_found.
// - Identity keys retired more than 24 hours ago (they have already left the published set).
// - Attempt and allowance counters whose window ended: the next use starts a new window anyway, and
//   without this the table keeps a row for every address and key ever seen.
// - Idempotency keys past their 24 hours (a request after that runs anew and takes the row over anyway).
// - Data events delivered or failed more than 30 days ago, with their attempts (the delivery log keeps 30
//   days); events still pending or held stay, they are owed to the game. Events for integrations the same
//   way (their log keeps 30 days too); pending ones stay, owed to the app.
// - Uses of the rolling caps (reviews a day...) older than the longest window.
// - Views of a person's history older than its 90 days or past its 500 newest (no read shows them).
// - Notifications older than 90 days (NOTIFICATION_RETENTION_DAYS; a collapsed like's time is its latest).
import type { Knex } from 'knex';
import { purgeRetiredKeys } from '../identity/signing-keys.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from '../media/orphaned-media.js';
import { REMOVED_EVIDENCE_DAYS } from '../arcade/rows.js';
import { purgeExpiredIdempotencyKeys } from '../platform/idempotency/idempotency-keys.js';
import { purgeDeliveryLog } from '../arcade/delivery-log.js';
import { purgeAppEvents } from '../events/event-log.js';
import { purgeRollingUses } from '../platform/rate-limits/rolling-cap.js';
import { purgeViews } from '../history/history.js';
import { NOTIFICATION_RETENTION_DAYS } from '../notifications/rows.js';
import { Notification, NotificationListener } from '../notifications/models.js';
import { Image } from '../media/models.js';
import { Username } from '../accounts/models.js';
import { RateLimit } from '../platform/rate-limits/models.js';
import { ArcadeGame, ArcadeOverride } from '../arcade/models.js';
import { ArcadePlayer } from '../arcade/player-models.js';

const DAY_MS = 24 * 3600 * 1000;
/** How long an expired development URL is still shown as expired before it goes. */
export const EXPIRED_OVERRIDE_GRACE_DAYS = 7;

export interface PurgeReport {
  removed_games: number;
  game_images: number;
  expired_aliases: number;
  expired_overrides: number;
  retired_keys: number;
  expired_limits: number;
  expired_idempotency_keys: number;
  expired_data_events: number;
  expired_app_events: number;
  expired_rolling_uses: number;
  expired_views: number;
  expired_notifications: number;
}

const ARCADE_PURPOSES = ['arcade_icon', 'arcade_tile', 'arcade_cover', 'arcade_screenshot'];

export async function purgeRetention(knex: Knex, media: MediaStorage, now = Date.now()): Promise<PurgeReport> {
  const evidenceEnd = new Date(now - REMOVED_EVIDENCE_DAYS * DAY_MS);
  const { games, images } = await knex.transaction(async (trx) => {
    const gone = await ArcadeGame.query(trx)
      .where({ status: 'removed' })
      .where('removed_at', '<', evidenceEnd)
      .select('app_id');
    const ids = gone.map((game) => game.app_id);
    if (ids.length === 0) return { games: 0, images: [] as string[] };
    // Deleting an image row queues its file (the orphaned_media trigger); the files go after the commit.
    const deletedImages = await Image.query(trx)
      .whereIn('app_id', ids)
      .whereIn('purpose', ARCADE_PURPOSES)
      .delete()
      .returning('storage_key');
    // The game's own rows go by their foreign keys (ON DELETE CASCADE); player ids have none to follow.
    await ArcadePlayer.query(trx).whereIn('app_id', ids).delete();
    // Counted from what this run deleted: a run at the same time may have taken some first.
    const deleted = await ArcadeGame.query(trx).whereIn('app_id', ids).delete();
    return { games: deleted, images: deletedImages.map((image) => image.storage_key) };
  });
  if (images.length > 0) await removeOrphans(knex, media, images).catch(() => undefined);
  const aliases = await Username.query(knex).where({ kind: 'alias' }).where('expires_at', '<', new Date(now)).delete();
  const overrides = await ArcadeOverride.query(knex)
    .where('expires_at', '<', new Date(now - EXPIRED_OVERRIDE_GRACE_DAYS * DAY_MS))
    .delete();
  const keys = await purgeRetiredKeys(knex, now);
  const limits = await RateLimit.query(knex).where('expire', '<=', now).delete();
  const idempotencyKeys = await purgeExpiredIdempotencyKeys(knex, now);
  const dataEvents = await purgeDeliveryLog(knex, now);
  const appEvents = await purgeAppEvents(knex, now);
  const rollingUses = await purgeRollingUses(knex);
  const views = await purgeViews(knex, now);
  const notifications = await Notification.query(knex)
    .where('created_at', '<', new Date(now - NOTIFICATION_RETENTION_DAYS * DAY_MS))
    .delete();
  // Listeners of a process that died without closing its streams (a live one refreshes its rows every 10 s).
  await NotificationListener.query(knex)
    .where('seen_at', '<', new Date(now - DAY_MS))
    .delete();
  return {
    removed_games: games,
    game_images: images.length,
    expired_aliases: aliases,
    expired_overrides: overrides,
    retired_keys: keys,
    expired_limits: limits,
    expired_idempotency_keys: idempotencyKeys,
    expired_data_events: dataEvents,
    expired_app_events: appEvents,
    expired_rolling_uses: rollingUses,
    expired_views: views,
    expired_notifications: notifications,
  };
}
