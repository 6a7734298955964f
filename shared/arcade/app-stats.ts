// The `arcade` member of app answers (spec general.md: Arcade summary): the apps' own stats from keys, with
// each app's game summed up, for several apps in a fixed number of queries whatever their number.
import type { Knex } from 'knex';
import { appStats } from '../keys/apps.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { dataEventCounts } from './data-events.js';
import { iso } from './presenters.js';
import type { ArcadeApp } from './rows.js';
import type { AppStats } from '../keys/rows.js';

/** Key counts, last use and icons of several apps (keys' appStats), each with its Arcade summary or null. */
export async function appStatsWithArcade(
  knex: Knex,
  media: MediaStorage,
  appIds: string[],
): Promise<Map<string, AppStats>> {
  const [stats, games] = await Promise.all([appStats(knex, media, appIds), arcadeSummaries(knex, appIds)]);
  for (const [id, app] of stats) app.arcade = games.get(id) ?? null;
  return stats;
}

interface SummaryRow {
  app_id: string;
  slug: string;
  status: ArcadeApp['status'];
  notice_kind: ArcadeApp['notice_kind'];
  notice_reason: string | null;
  notice_at: Date | null;
  live_release_number: number | null;
  listing_approved: boolean;
  listing_pending: boolean;
  listing_draft: boolean;
  listing_rejected: boolean;
  releases_draft: number;
  releases_pending: number;
  releases_ready: number;
  rejected_latest: boolean;
}

/** The `arcade` member of app answers, for several apps in one statement; apps without a game are absent. */
async function arcadeSummaries(knex: Knex, appIds: string[]) {
  if (appIds.length === 0) return new Map();
  const { rows } = await knex.raw<{ rows: SummaryRow[] }>(
    `SELECT a.app_id, a.slug, a.status, a.notice_kind, a.notice_reason, a.notice_at,
       (SELECT number FROM arcade_releases WHERE id = a.live_release_id) AS live_release_number,
       EXISTS (SELECT 1 FROM arcade_listings l WHERE l.app_id = a.app_id AND l.status = 'approved') AS listing_approved,
       EXISTS (SELECT 1 FROM arcade_listings l WHERE l.app_id = a.app_id AND l.status = 'submitted') AS listing_pending,
       EXISTS (SELECT 1 FROM arcade_listings l WHERE l.app_id = a.app_id AND l.status = 'draft') AS listing_draft,
       EXISTS (SELECT 1 FROM arcade_listings l WHERE l.app_id = a.app_id AND l.status = 'rejected'
         AND l.number > coalesce((SELECT max(number) FROM arcade_listings x
                                  WHERE x.app_id = a.app_id AND x.status = 'approved'), 0)) AS listing_rejected,
       (SELECT count(*) FROM arcade_releases r WHERE r.app_id = a.app_id AND r.status = 'draft')::int AS releases_draft,
       (SELECT count(*) FROM arcade_releases r WHERE r.app_id = a.app_id
         AND r.status IN ('submitted', 'in_review'))::int AS releases_pending,
       (SELECT count(*) FROM arcade_releases r WHERE r.app_id = a.app_id AND r.status = 'approved'
         AND r.id IS DISTINCT FROM a.live_release_id)::int AS releases_ready,
       coalesce((SELECT r.status = 'rejected' FROM arcade_releases r WHERE r.app_id = a.app_id
         ORDER BY r.number DESC LIMIT 1), false) AS rejected_latest
     FROM arcade_apps a WHERE a.app_id = ANY(CAST(:ids AS uuid[]))`,
    { ids: appIds as unknown as Knex.Value },
  );
  const counts = await dataEventCounts(knex, appIds);
  return new Map(
    rows.map((row) => [
      row.app_id,
      {
        slug: row.slug,
        status: row.status,
        hidden_reason: row.notice_kind === 'hidden' ? row.notice_reason : null,
        notice: row.notice_kind ? { kind: row.notice_kind, reason: row.notice_reason, at: iso(row.notice_at) } : null,
        live_release_number: row.live_release_number,
        listing: {
          approved: row.listing_approved,
          pending: row.listing_pending,
          draft: row.listing_draft,
          rejected: row.listing_rejected,
        },
        releases: {
          draft: row.releases_draft,
          pending: row.releases_pending,
          ready: row.releases_ready,
          rejected_latest: row.rejected_latest,
        },
        data_events: (({ pending, held, failed }) => ({ pending, held, failed }))(counts.get(row.app_id)!),
      },
    ]),
  );
}
