// The author's writes of captures (DECISIONS: Screenshots). An upload runs through the image pipeline: its
// use of the daily cap is taken in the transaction that hands it to the worker, and the worker records the
// capture and its feed item after the quota (capture-records.ts). Edits and deletes are one transaction
// each; a deleted capture's feed items, likes and comments go with its row (triggers), and its files are
// held until no layout of the author names it (media.cleanup).
import type { Knex } from 'knex';
import { moveFeedItems } from '../content/feed-items.js';
import { gameInBody } from '../content/game-refs.js';
import { quotaExceeded, uploadCapture, type UploadServices } from '../media/image-uploads.js';
import { takeRollingUse } from '../platform/rate-limits/rolling-cap.js';
import { CAPTURE_DAILY_CAP, captureNotFound, captureRemoved, quotaFull } from './capture-rules.js';
import { captureByRowId, captureQuotaIn, findOwnCapture } from './load-capture.js';
import { Screenshot } from './models.js';
import type { CaptureChanges, CaptureFields, CaptureRow } from './rows.js';

/** What the quota's refusal calls the things it counts. */
export const HELD = 'Captures';

/** Thrown to roll back a probe of the daily cap; never leaves this file. */
const PROBE = new Error('probe of the daily cap');

/**
 * The refusals that cost nothing, asked before the upload's file is read: 409 `quota_exceeded` when 2,000
 * captures or 5 GB are held, 429 `rate_limited` when the day's 100 uploads are used. The cap is probed by
 * taking a use in a transaction that rolls back, so the answer is the cap's own and nothing is spent.
 */
export async function refuseBeforeUpload(knex: Knex, accountId: string): Promise<void> {
  const quota = await captureQuotaIn(knex, accountId);
  if (quotaFull(quota)) throw quotaExceeded(quota, HELD);
  await knex
    .transaction(async (trx) => {
      await takeRollingUse(trx, CAPTURE_DAILY_CAP, accountId);
      throw PROBE;
    })
    .catch((error: unknown) => {
      if (error !== PROBE) throw error;
    });
}

/** Uploads a capture of the file at `path`; answers it as its author sees it. */
export async function createCapture(
  services: UploadServices,
  accountId: string,
  path: string,
  fields: CaptureFields,
): Promise<CaptureRow> {
  await gameInBody(services.knex, fields.game_id);
  const id = await uploadCapture(services, {
    accountId,
    purpose: 'screenshot',
    path,
    capture: fields,
    handingOver: (trx) => takeRollingUse(trx, CAPTURE_DAILY_CAP, accountId),
    recordedAs: async (knex, rowId) => (await Screenshot.query(knex).select('id').findById(rowId)) !== undefined,
  });
  return (await captureByRowId(services.knex, id))!;
}

/**
 * Changes the fields sent of the author's capture; another's, or none, is 404. A removed capture cannot be
 * changed (403 `removed`). A new game is checked, and the capture's feed items move to it.
 */
export async function updateCapture(
  knex: Knex,
  authorId: string,
  publicId: string,
  changes: CaptureChanges,
): Promise<CaptureRow> {
  return knex.transaction(async (trx) => {
    // Locked before it is judged, so two edits at once (or an edit and a removal) apply one after the other.
    const own = await Screenshot.query(trx)
      .select('id')
      .where({ public_id: publicId, account_id: authorId })
      .forUpdate()
      .first();
    if (!own) throw captureNotFound();
    const current = (await findOwnCapture(trx, authorId, publicId))!;
    if (current.removed_at !== null) throw captureRemoved();
    const sent = sentFields(changes);
    if (Object.keys(sent).length === 0) return current;
    const movesGame = sent.game_id !== undefined && sent.game_id !== current.game_id;
    if (movesGame) await gameInBody(trx, sent.game_id!);
    await Screenshot.query(trx).findById(own.id).patch(sent);
    if (movesGame) await moveFeedItems(trx, 'screenshot', own.id, sent.game_id!);
    return (await findOwnCapture(trx, authorId, publicId))!;
  });
}

/** The capture's own fields among those sent: nothing else reaches the row, whatever the caller passed. */
function sentFields(changes: CaptureChanges): CaptureChanges {
  const { game_id, description, contains_spoilers, visibility } = changes;
  const fields = { game_id, description, contains_spoilers, visibility };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** Deletes the author's capture (removed or not); 404 when it is not theirs. */
export async function deleteCapture(knex: Knex, authorId: string, publicId: string): Promise<void> {
  const deleted = await Screenshot.query(knex).where({ public_id: publicId, account_id: authorId }).delete();
  if (deleted === 0) throw captureNotFound();
}
