// Arcade as the developer sees it: the app record (spec: App Arcade record), its releases and listing
// revisions, and the notice. Pure: rows in, the spec's JSON out; the loaders read what these need.
// Reviewer names never appear.
import { APPROVAL_MAX_AGE_MS, type ArcadeApp, type CheckRow, type ListingRow, type ReleaseRow } from './rows.js';

/**
 * Whether the consent must say that players' data is processed abroad (spec: Store page draft,
 * `controller_country`: "outside Brazil the consent says data is processed abroad"). A game whose
 * controller's country is unknown (no approved store page yet) is not known to keep data in Brazil, so it
 * counts as abroad.
 */
export const processedAbroad = (controllerCountry: unknown): boolean => controllerCountry !== 'BR';

/** A stored time as the answers show it, or null. */
export const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

export function presentCheck(check: CheckRow | null | undefined) {
  if (!check) return null;
  return { id: check.id, ...check.result, checked_at: iso(check.created_at) };
}

/** A release may be made live: approved, recent enough, and newer than the live one or its predecessor. */
export function canMakeLive(release: ReleaseRow, game: ArcadeApp, liveNumber: number | null, now = Date.now()) {
  if (release.status !== 'approved' || release.id === game.live_release_id) return false;
  if (!release.approved_at || now - new Date(release.approved_at).getTime() > APPROVAL_MAX_AGE_MS) return false;
  return liveNumber === null || release.number > liveNumber || release.id === game.previous_live_release_id;
}

export function presentRelease(
  release: ReleaseRow,
  game: ArcadeApp,
  liveNumber: number | null,
  lastCheck: CheckRow | null | undefined,
) {
  return {
    id: release.id,
    number: release.number,
    status: release.status,
    entry_url: release.entry_url,
    entry_origin: release.entry_origin,
    capabilities: release.capabilities,
    scopes: release.scopes,
    orientation: release.orientation,
    platforms: release.platforms,
    third_parties: release.third_parties,
    data_events_url: release.data_events_url,
    notes: release.notes,
    created_at: iso(release.created_at),
    updated_at: iso(release.updated_at),
    submitted_at: iso(release.submitted_at),
    reviewed_at: iso(release.reviewed_at),
    approved_at: iso(release.approved_at),
    went_live_at: iso(release.went_live_at),
    review: release.review,
    last_check: presentCheck(lastCheck),
    live: release.id === game.live_release_id,
    previous_live: release.id === game.previous_live_release_id,
    can_make_live: canMakeLive(release, game, liveNumber),
    can_test: ['draft', 'submitted', 'in_review', 'approved'].includes(release.status),
  };
}

/** Image urls of a revision's slots: `icon:0`, `tile:0`, `cover:0`, `screenshot:0..5`. */
export function mediaUrls(media: Record<string, string>, urlOf: Map<string, string>) {
  const at = (slot: string) => (media[slot] ? (urlOf.get(media[slot]) ?? null) : null);
  const screenshots: string[] = [];
  for (let position = 0; position <= 5; position += 1) {
    const url = at(`screenshot:${position}`);
    if (url) screenshots.push(url);
  }
  return { icon_url: at('icon:0'), tile_url: at('tile:0'), cover_url: at('cover:0'), screenshots };
}

export function presentListing(listing: ListingRow | undefined, urlOf: Map<string, string>) {
  if (!listing) return null;
  return {
    number: listing.number,
    status: listing.status,
    ...(listing.fields ?? {}),
    ...mediaUrls(listing.media, urlOf),
    submitted_at: iso(listing.submitted_at),
    reviewed_at: iso(listing.reviewed_at),
    review: listing.review,
    updated_at: iso(listing.updated_at),
  };
}

/** The four views of the store page: approved, pending (submitted), draft, and the newest refusal. */
export function listingViews(revisions: ListingRow[]) {
  const newest = (status: ListingRow['status']) =>
    revisions.filter((r) => r.status === status).sort((a, b) => b.number - a.number)[0];
  const approved = newest('approved');
  const rejected = newest('rejected');
  return {
    approved,
    pending: newest('submitted'),
    draft: newest('draft'),
    // Only a refusal newer than what players see is news for the developer.
    rejected: rejected && (!approved || rejected.number > approved.number) ? rejected : undefined,
  };
}

/**
 * The spec's `listing` object {approved, pending, draft, rejected} (each a revision or null), as the app
 * record and the store-page routes answer it.
 */
export function presentListingViews(views: ReturnType<typeof listingViews>, urlOf: Map<string, string>) {
  return {
    approved: presentListing(views.approved, urlOf),
    pending: presentListing(views.pending, urlOf),
    draft: presentListing(views.draft, urlOf),
    rejected: presentListing(views.rejected, urlOf),
  };
}

export function presentNotice(game: ArcadeApp) {
  if (!game.notice_kind) return null;
  return { kind: game.notice_kind, reason: game.notice_reason, at: iso(game.notice_at) };
}
