// The public side of Arcade (spec: GET /arcade/apps, GET /arcade/apps/{slug}): games that are listed,
// carry no notice (a flagged game stays "listed" but nobody can open it), have an approved store page and
// a live release. Everything shown comes from the approved revision and the live release, never a draft,
// except the age rating: a stricter one submitted for review applies as soon as it is submitted.
import type { Knex } from 'knex';
import { decodeCursor, encodeCursor } from '../platform/paging/cursor.js';
import { notFound } from '../platform/errors.js';
import { shownAgeRating } from './listing-rules.js';
import { loadImageUrls } from './listings.js';
import { mediaUrls, processedAbroad } from './presenters.js';
import type { ListingRow } from './rows.js';
import { likeContaining } from '../platform/db/like.js';

interface ListedRow {
  app_id: string;
  slug: string;
  approved_at: Date;
  fields: Record<string, unknown>;
  media: Record<string, string>;
  reviewed_at: Date;
  entry_origin: string;
  scopes: string[];
  capabilities: string[];
  /** The age rating of a revision waiting for review, if any. */
  pending_age_rating: string | null;
}

const LISTED = `
  FROM arcade_apps a
  JOIN arcade_listings l ON l.app_id = a.app_id AND l.status = 'approved'
  JOIN arcade_releases r ON r.id = a.live_release_id
  LEFT JOIN arcade_listings p ON p.app_id = a.app_id AND p.status = 'submitted'
  WHERE a.status = 'listed' AND a.notice_kind IS NULL`;

const COLUMNS = `a.app_id, a.slug, a.approved_at, l.fields, l.media, l.reviewed_at, r.entry_origin, r.scopes, r.capabilities,
  p.fields->>'age_rating' AS pending_age_rating`;

function directoryItem(row: ListedRow, urls: Map<string, string>) {
  const f = row.fields;
  const media = mediaUrls(row.media, urls);
  return {
    app_id: row.app_id,
    slug: row.slug,
    name: f.name,
    tagline: f.tagline,
    icon_url: media.icon_url,
    tile_url: media.tile_url,
    tags: f.tags,
    // A stricter rating submitted for review applies at once; a milder one waits for the approval.
    age_rating: shownAgeRating(f.age_rating, row.pending_age_rating),
    controller_name: f.controller_name,
    platforms: f.platforms,
  };
}

export interface DirectoryQuery {
  q?: string;
  cursor?: string;
  limit: number;
}

const SORT = 'arcade-directory';

/** Newest approval first; the cursor is signed and bound to this order. */
export async function listDirectory(
  knex: Knex,
  secret: string,
  query: DirectoryQuery,
  mediaUrl: (key: string) => string,
) {
  const where: string[] = [];
  const bindings: Record<string, unknown> = { limit: query.limit + 1 };
  // A cursor is bound to the query's text too: reusing it with another `q` starts over.
  const position = query.cursor ? decodeCursor(secret, query.cursor, `${SORT}:${query.q ?? ''}`) : null;
  if (position) {
    where.push('(a.approved_at, a.app_id) < (CAST(:at AS timestamptz), CAST(:id AS uuid))');
    Object.assign(bindings, { at: position[0], id: position[1] });
  }
  const text = query.q?.trim();
  if (text) {
    where.push("catalog_fold(l.fields->>'name') LIKE catalog_fold(:like)");
    bindings.like = likeContaining(text);
  }
  const { rows } = await knex.raw<{ rows: ListedRow[] }>(
    `SELECT ${COLUMNS} ${LISTED} ${where.map((w) => `AND ${w}`).join(' ')}
     ORDER BY a.approved_at DESC, a.app_id DESC LIMIT :limit`,
    bindings as Record<string, Knex.Value>,
  );
  const page = rows.slice(0, query.limit);
  const urls = await loadImageUrls(
    knex,
    page.flatMap((r) => Object.values(r.media)),
    mediaUrl,
  );
  const last = page.at(-1);
  return {
    data: page.map((row) => directoryItem(row, urls)),
    next:
      rows.length > query.limit && last
        ? encodeCursor(secret, `${SORT}:${query.q ?? ''}`, [new Date(last.approved_at).toISOString(), last.app_id])
        : null,
  };
}

export async function storePage(knex: Knex, slug: string, mediaUrl: (key: string) => string) {
  const { rows } = await knex.raw<{ rows: ListedRow[] }>(`SELECT ${COLUMNS} ${LISTED} AND a.slug = :slug`, { slug });
  const row = rows[0];
  if (!row) throw notFound('No listed game has this slug.', 'app_not_found');
  const urls = await loadImageUrls(knex, Object.values(row.media), mediaUrl);
  const f = row.fields;
  const media = mediaUrls(row.media as ListingRow['media'], urls);
  return {
    ...directoryItem(row, urls),
    description: f.description,
    cover_url: media.cover_url,
    screenshots: media.screenshots,
    orientation: f.orientation,
    privacy_url: f.privacy_url,
    terms_url: f.terms_url,
    support_url: f.support_url,
    controller_country: f.controller_country,
    processed_abroad: processedAbroad(f.controller_country),
    privacy_contact: f.privacy_contact,
    host: new URL(row.entry_origin).host,
    scopes: row.scopes,
    capabilities: row.capabilities,
    reviewed_at: new Date(row.reviewed_at).toISOString(),
  };
}
