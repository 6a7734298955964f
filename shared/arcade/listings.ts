// The store page's revisions (spec: Store page draft, PUT .../listing, POST .../listing/submit). There is
// one working revision at a time: a draft, which the developer edits, or a submitted one, locked until a
// moderator decides. A new draft starts from the newest approved revision (its fields and images), so
// the developer edits what players see. Players only ever see an approved revision.
import type { Knex } from 'knex';
import { fn } from 'objection';
import { conflict, notFound } from '../platform/errors.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import { listingViews, presentListingViews } from './presenters.js';
import { lockOpenGame, recordEvent } from './games.js';
import { emailDeveloper } from './review.js';
import type { ArcadeApp, ListingRow } from './rows.js';
import { ArcadeListing } from './models.js';

/** Spec Limits: store-page submissions, 5 per app per day. */
const LISTING_SUBMITS = {
  name: 'arcade-listing-submit',
  failures: 5,
  windowSeconds: 24 * 3600,
  reason: 'rate_limited',
};

export function listingLocked() {
  return conflict('listing_locked', {}, 'The store page is submitted: it is locked until moderation decides.');
}

export function listingNotFound() {
  return notFound('There is no store page draft to submit.', 'listing_not_found');
}

/** The working revision (draft or submitted), locked for the transaction; undefined when there is none. */
export async function workingRevision(trx: Knex.Transaction, appId: string): Promise<ListingRow | undefined> {
  return ArcadeListing.query(trx)
    .where({ app_id: appId })
    .whereIn('status', ['draft', 'submitted'])
    .forUpdate()
    .first();
}

/** The draft to change: the working one if it is a draft, else a new one from the newest approved. */
export async function draftForChange(trx: Knex.Transaction, appId: string): Promise<ListingRow> {
  // The game's row is the lock: two requests cannot both create the draft, nor one land after a removal.
  await lockOpenGame(trx, appId);
  const working = await workingRevision(trx, appId);
  if (working?.status === 'submitted') throw listingLocked();
  if (working) return working;
  const base = await ArcadeListing.query(trx)
    .where({ app_id: appId, status: 'approved' })
    .orderBy('number', 'desc')
    .first();
  const { max } = await ArcadeListing.query(trx).where({ app_id: appId }).max('number as max').first().castTo<{
    max: number | null;
  }>();
  return ArcadeListing.query(trx)
    .insert({
      app_id: appId,
      number: (max ?? 0) + 1,
      status: 'draft',
      fields: base?.fields ?? null,
      media: base?.media ?? {},
    })
    .returning('*');
}

export async function saveListingDraft(knex: Knex, game: ArcadeApp, fields: Record<string, unknown>) {
  return knex.transaction(async (trx) => {
    const draft = await draftForChange(trx, game.app_id);
    const [saved] = await ArcadeListing.query(trx).where({ id: draft.id }).patch({ fields }).returning('*');
    return saved;
  });
}

/** Puts an image in a slot of the draft (or empties it with null); answers the revision. */
export async function setListingSlot(knex: Knex, game: ArcadeApp, slot: string, imageId: string | null) {
  return knex.transaction(async (trx) => {
    const draft = await draftForChange(trx, game.app_id);
    const media = { ...draft.media };
    if (imageId) media[slot] = imageId;
    else delete media[slot];
    const [saved] = await ArcadeListing.query(trx).where({ id: draft.id }).patch({ media }).returning('*');
    return saved;
  });
}

/**
 * Submits the draft for review; it must hold every field (PUT .../listing), and the developer is emailed.
 * The caller has checked the recent session and the terms.
 */
export async function submitListing(knex: Knex, game: ArcadeApp): Promise<ListingRow> {
  // Only a submission that is made spends one of the day's 5; a refusal gives its use back.
  return limiterFor(knex, LISTING_SUBMITS).within([game.app_id], () =>
    knex.transaction(async (trx) => {
      await lockOpenGame(trx, game.app_id);
      const working = await workingRevision(trx, game.app_id);
      if (working?.status === 'submitted') throw listingLocked();
      if (!working || !working.fields) throw listingNotFound();
      const [submitted] = await ArcadeListing.query(trx)
        .where({ id: working.id })
        .patch({ status: 'submitted', submitted_at: fn.now() })
        .returning('*');
      await recordEvent(trx, game.app_id, 'listing_submitted', { number: working.number });
      await emailDeveloper(
        trx,
        game,
        `Store page of ${game.slug} submitted`,
        `Revision ${submitted.number} of the store page of ${game.slug} is waiting for review.`,
      );
      return submitted as ListingRow;
    }),
  );
}

/** Image ids to urls, one query for a set of revisions. */
export async function loadImageUrls(knex: Knex, ids: string[], url: (key: string) => string) {
  if (ids.length === 0) return new Map<string, string>();
  const rows: Array<{ id: string; storage_key: string }> = await knex('images')
    .whereIn('id', [...new Set(ids)])
    .select('id', 'storage_key');
  return new Map(rows.map((row) => [row.id, url(row.storage_key)]));
}

/** The game's revisions, seen as the spec's four views with their image urls (app record and store-page routes). */
export async function loadListingViews(knex: Knex, appId: string, mediaUrl: (key: string) => string) {
  const revisions: ListingRow[] = await ArcadeListing.query(knex).where({ app_id: appId });
  const views = listingViews(revisions);
  const shown = Object.values(views).filter((r): r is ListingRow => r !== undefined);
  const urls = await loadImageUrls(
    knex,
    shown.flatMap((r) => Object.values(r.media)),
    mediaUrl,
  );
  return { views, urls };
}

/** The spec's `listing` object of a game: approved, pending, draft and rejected, each null when absent. */
export async function listingOf(knex: Knex, appId: string, mediaUrl: (key: string) => string) {
  const { views, urls } = await loadListingViews(knex, appId, mediaUrl);
  return presentListingViews(views, urls);
}
