// The whole Arcade record of one game for its developer (spec: App Arcade record), in a fixed number of
// queries.
import type { Knex } from 'knex';
import { dataEventCounts } from './data-events.js';
import { loadListingViews } from './listings.js';
import { iso, presentListingViews, presentNotice, presentRelease } from './presenters.js';
import type { ArcadeApp, CheckRow, ReleaseRow } from './rows.js';
import { ArcadeCheck, ArcadeEvent, ArcadeRelease } from './models.js';

/** How many timeline entries the record carries, newest first. */
export const TIMELINE_SIZE = 100;

async function releasesOf(knex: Knex | Knex.Transaction, appId: string): Promise<ReleaseRow[]> {
  return ArcadeRelease.query(knex).where({ app_id: appId }).orderBy('number', 'desc');
}

async function checksById(knex: Knex | Knex.Transaction, ids: Array<string | null>) {
  const wanted = ids.filter((id): id is string => id !== null);
  const rows: CheckRow[] = wanted.length ? await ArcadeCheck.query(knex).whereIn('id', wanted) : [];
  return new Map(rows.map((row) => [row.id, row]));
}

/** The game's releases as the developer sees them, newest first, with their latest checks: two queries. */
export async function loadReleases(knex: Knex | Knex.Transaction, game: ArcadeApp) {
  const releases = await releasesOf(knex, game.app_id);
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
    loadReleases(knex, game),
    ArcadeEvent.query(knex)
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
    releases,
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
