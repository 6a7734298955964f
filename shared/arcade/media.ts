// Store-page images (spec arcade.md: Store page slots, POST/DELETE .../arcade/media). An upload becomes an
// image through the shared pipeline under the slot kind's purpose, then takes its slot in the single
// draft revision (listings.ts). An image belongs to no slot by itself: the revisions name it, so it lives
// while any revision (draft, submitted, approved, or kept as history) names it, and is deleted when the
// last one lets go of it.
import type { Knex } from 'knex';
import { invalidRequest, isApiError, type ApiError } from '../platform/errors.js';
import { IMAGE_REFUSAL_REASONS, type ImageRefusalReason } from '../media/image-refusals.js';
import { uploadImage, type UploadServices } from '../media/image-uploads.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from '../media/orphaned-media.js';
import { listingLocked, setListingSlot, workingRevision } from './listings.js';
import { lockOpenGame } from './games.js';
import type { ImagePurpose } from '../media/rows.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import type { ArcadeApp, ListingRow } from './rows.js';
import { ArcadeListing } from './models.js';

export const SLOT_KINDS = ['icon', 'tile', 'cover', 'screenshot'] as const;
export type SlotKind = (typeof SLOT_KINDS)[number];

/** Highest position of each kind (spec: 0 for icon, tile, cover; 0 to 5 for screenshot). */
const LAST_POSITION: Record<SlotKind, number> = { icon: 0, tile: 0, cover: 0, screenshot: 5 };

const PURPOSE_OF_KIND: Record<SlotKind, ImagePurpose> = {
  icon: 'arcade_icon',
  tile: 'arcade_tile',
  cover: 'arcade_cover',
  screenshot: 'arcade_screenshot',
};
const ARCADE_PURPOSES = Object.values(PURPOSE_OF_KIND);

export interface MediaSlot {
  kind: SlotKind;
  position: number;
  /** The key in a revision's `media`, e.g. `screenshot:3`. */
  slot: string;
}

/** Spec Limits: image uploads, 30 per app per day. */
export const MEDIA_UPLOADS = { name: 'arcade-media', failures: 30, windowSeconds: 24 * 3600, reason: 'rate_limited' };

/** Every refusal of an upload on these routes: 400 `media_invalid`, `detail` naming what to fix. */
export function mediaInvalid(detail: string, message: string): ApiError {
  return invalidRequest(message, { reason: 'media_invalid', detail });
}

/** Reads a slot from the request's `kind` and `position` (strings from a form or a query). */
export function parseSlot(kind: unknown, position: unknown): MediaSlot {
  if (typeof kind !== 'string' || !(SLOT_KINDS as readonly string[]).includes(kind)) {
    throw mediaInvalid('kind', `kind must be one of ${SLOT_KINDS.join(', ')}.`);
  }
  const last = LAST_POSITION[kind as SlotKind];
  const range = last === 0 ? 'must be 0' : `must be 0 to ${last}`;
  // One digit, as written: Number() would also take '', ' 1', '01', '1e0' and '0x1'.
  if (typeof position !== 'string' || !/^\d$/.test(position) || Number(position) > last) {
    throw mediaInvalid('position', `position ${range} for ${kind}.`);
  }
  return { kind: kind as SlotKind, position: Number(position), slot: `${kind}:${Number(position)}` };
}

/**
 * Refuses an upload to a submitted store page before its file is read (setListingSlot decides again,
 * under the game's lock, after the upload).
 */
export async function assertListingOpen(knex: Knex, appId: string): Promise<void> {
  const submitted = await ArcadeListing.query(knex).select('id').findOne({ app_id: appId, status: 'submitted' });
  if (submitted) throw listingLocked();
}

/**
 * One of the app's uploads of the day, taken before the file is read (429 when none is left), so parallel
 * uploads cannot all pass with one left. It is spent once the file reaches the image pipeline, refused
 * there or not, since the work was done; `settle()` gives it back when the request ended before that
 * (kind, position or file refused, the form unreadable).
 */
export interface UploadTicket {
  /** The file reached the pipeline: the upload counts whatever follows. */
  spend(): void;
  /** Gives the upload back unless it was spent. */
  settle(): Promise<void>;
}

export async function takeUpload(knex: Knex, appId: string): Promise<UploadTicket> {
  const reservation = await limiterFor(knex, MEDIA_UPLOADS).reserve([appId]);
  let spent = false;
  return {
    spend: () => {
      spent = true;
    },
    settle: async () => {
      if (!spent) await reservation.release();
    },
  };
}

/**
 * Runs the file through the image pipeline under the kind's purpose and puts the image in its slot;
 * answers the image's URL. The ticket's upload is spent here, as the file reaches the pipeline: what the
 * pipeline refuses counts too, since the work was done.
 */
export async function uploadSlotImage(
  services: UploadServices,
  game: ArcadeApp,
  slot: MediaSlot,
  path: string,
  ticket: UploadTicket,
): Promise<string> {
  const { knex, media } = services;
  ticket.spend();
  let image;
  try {
    image = await uploadImage(services, {
      accountId: game.account_id,
      purpose: PURPOSE_OF_KIND[slot.kind],
      appId: game.app_id,
      path,
    });
  } catch (error) {
    throw asMediaRefusal(error);
  }
  try {
    await placeImage(knex, media, game, slot.slot, image.id);
  } catch (error) {
    // Submitted meanwhile (409 listing_locked) or the game went away: no revision will ever name it.
    await deleteImages(knex, media, game.app_id, [image.id]).catch(() => undefined);
    throw error;
  }
  return image.url;
}

/** Empties a slot of the draft; an already empty slot changes nothing (no draft is made for it). */
export async function clearSlot(knex: Knex, media: MediaStorage, game: ArcadeApp, slot: MediaSlot): Promise<void> {
  await placeImage(knex, media, game, slot.slot, null);
}

/** The pipeline's refusal words become the `detail` of `media_invalid`; other errors pass unchanged. */
function asMediaRefusal(error: unknown): unknown {
  if (!isApiError(error) || error.code !== 'invalid_request') return error;
  const reason = error.members.reason as ImageRefusalReason | undefined;
  if (!reason || !IMAGE_REFUSAL_REASONS.includes(reason)) return error;
  return mediaInvalid(reason, error.message);
}

/**
 * Sets or empties one slot of the draft, then deletes the images no revision names any more (normally
 * the one the slot held, unless the approved revision or another slot still shows it). The game's row
 * is locked first, as draftForChange and moderation decisions lock it, so no other change to the
 * revisions falls between the two readings.
 */
async function placeImage(
  knex: Knex,
  media: MediaStorage,
  game: ArcadeApp,
  slot: string,
  imageId: string | null,
): Promise<void> {
  const released = await knex.transaction(async (trx) => {
    await lockOpenGame(trx, game.app_id);
    if (imageId === null && !(await slotHolds(trx, game.app_id, slot))) return [];
    const before = await namedImages(trx, game.app_id);
    await setListingSlot(trx, game, slot, imageId);
    const after = await namedImages(trx, game.app_id);
    return deleteImageRows(
      trx,
      game.app_id,
      [...before].filter((id) => !after.has(id)),
    );
  });
  // After the commit; a file that cannot be removed now stays queued for media.cleanup.
  await removeOrphans(knex, media, released).catch(() => undefined);
}

/**
 * Whether the slot holds an image in the revision a change would edit: the working one, or the newest
 * approved that a new draft would start from. A submitted revision is locked even for a no-op.
 */
async function slotHolds(trx: Knex.Transaction, appId: string, slot: string): Promise<boolean> {
  const working = await workingRevision(trx, appId);
  if (working?.status === 'submitted') throw listingLocked();
  const base: Pick<ListingRow, 'media'> | undefined =
    working ??
    (await ArcadeListing.query(trx)
      .select('media')
      .where({ app_id: appId, status: 'approved' })
      .orderBy('number', 'desc')
      .first());
  return Boolean(base?.media[slot]);
}

/** Ids of the images any revision of the game names, whatever its status. */
async function namedImages(trx: Knex.Transaction, appId: string): Promise<Set<string>> {
  const { rows } = await trx.raw<{ rows: Array<{ id: string }> }>(
    `SELECT DISTINCT m.value AS id FROM arcade_listings l, jsonb_each_text(l.media) m WHERE l.app_id = ?`,
    [appId],
  );
  return new Set(rows.map((row) => row.id));
}

/** Deletes the game's Arcade image rows (their files are queued by the images trigger); answers the keys. */
async function deleteImageRows(trx: Knex | Knex.Transaction, appId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const deleted: Array<{ storage_key: string }> = await trx('images')
    .where({ app_id: appId })
    .whereIn('purpose', ARCADE_PURPOSES)
    .whereIn('id', ids)
    .delete()
    .returning('storage_key');
  return deleted.map((row) => row.storage_key);
}

async function deleteImages(knex: Knex, media: MediaStorage, appId: string, ids: string[]): Promise<void> {
  const keys = await deleteImageRows(knex, appId, ids);
  await removeOrphans(knex, media, keys);
}
