// The whole Arcade record of one game for its developer (spec: App Arcade record), and the short summary
// of many games for the app answers (spec general.md: Arcade summary), each in a fixed number of queries.
import type { Knex } from 'knex';
import { dataEventCounts } from './data-events.js';
import type { ArcadeApp } from './games.js';
import { loadListingViews } from './listings.js';
import {
  iso,
  presentListingViews,
  presentNotice,
  presentRelease,
  type CheckRow,
  type ReleaseRow,
} from './presenters.js';

/** How many timeline entries the record carries, newest first. */
export const TIMELINE_SIZE = 100;

export async function releasesOf(knex: Knex | Knex.Transaction, appId: string): Promise<ReleaseRow[]> {
  return knex('arcade_releases').where({ app_id: appId }).orderBy('number', 'desc');
}

export async function checksById(knex: Knex | Knex.Transaction, ids: Array<string | null>) {
  const wanted = ids.filter((id): id is string => id !== null);
  const rows: CheckRow[] = wanted.length ? await knex('arcade_checks').whereIn('id', wanted) : [];
  return new Map(rows.map((row) => [row.id, row]));
}

export async function presentReleases(knex: Knex | Knex.Transaction, game: ArcadeApp, releases: ReleaseRow[]) {
  const checks = await checksById(
    knex,
    releases.map((r) => r.last_check_id),
  );
  const live = releases.find((r) => r.id === game.live_release_id);
  return releases.map((r) => presentRelease(r, game, live?.number ?? null, checks.get(r.last_check_id ?? '')));
}

export async function arcadeRecord(knex: Knex, game: ArcadeApp, mediaUrl: (key: string) => string) {
  const [{ views, urls }, releases, events, counts] = await Promise.all([
    loadListingViews(knex, game.app_id, mediaUrl),
    releasesOf(knex, game.app_id),
    knex('arcade_events')
      .where({ app_id: game.app_id })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(TIMELINE_SIZE)
      .select('kind', 'data', 'created_at'),
    dataEventCounts(knex, [game.app_id]),
  ]);
  return {
    slug: game.slug,
    status: game.status,
    listing: presentListingViews(views, urls),
    releases: await presentReleases(knex, game, releases),
    data_events: counts.get(game.app_id),
    events: events.map((e: { kind: string; data: unknown; created_at: Date }) => ({
      kind: e.kind,
      data: e.data,
      at: iso(e.created_at),
    })),
    notice: presentNotice(game),
    created_at: iso(game.created_at),
  };
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
export async function arcadeSummaries(knex: Knex, appIds: string[]) {
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
