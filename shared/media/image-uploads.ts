// The web side of every image upload: stage the original where a worker can read it, send the
// `image.process` job in the same transaction as the upload's row, wait a bounded time for the answer,
// and turn the answer into the route's result or the spec's error. The staged original never outlives
// the job: the worker removes it, and a wait that runs out removes it here after cancelling the job.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, internal, invalidRequest, type ApiError } from '../platform/errors.js';
import { JobFailedError, JobTimeoutError, type JobReplies } from '../platform/jobs/request-reply.js';
import type { Logger } from '../platform/logger.js';
import { queryPrepared } from '../platform/db/prepared.js';
import { outsideRequestTransaction } from '../platform/db/request-transaction.js';
import { sendJob } from '../platform/jobs/queue.js';
import type { ImageConfig } from '../platform/config.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from './orphaned-media.js';
import type { CaptureFields, ImageJobAnswer, ImagePurpose, StoredImage } from './rows.js';
import { presentImage } from './presenters.js';
import type { LayoutQuota } from './rows.js';
import { Image, OrphanedMedia, StagedUpload } from './models.js';

export interface UploadServices {
  knex: Knex;
  media: MediaStorage;
  replies: JobReplies;
  images: Pick<ImageConfig, 'waitMs' | 'busyAt'>;
  log: Logger;
}

export interface ImageUpload {
  accountId: string;
  purpose: ImagePurpose;
  appId?: string;
  /** The request's temporary file (removed by the multipart middleware when the request ends). */
  path: string;
  /** A capture's fields (purpose `screenshot`), recorded by the worker with the capture. */
  capture?: CaptureFields;
  /**
   * Runs in the transaction that hands the upload to the worker, before the job is sent (a daily cap's
   * use is taken there): what it throws refuses the upload, and nothing is left staged.
   */
  handingOver?: (trx: Knex.Transaction) => Promise<void>;
  /**
   * Whether the worker recorded the upload `id` as what it becomes when that is not an image (a capture,
   * whose domain sits above this one): the image's row by default.
   */
  recordedAs?: (knex: Knex, id: string) => Promise<boolean>;
}

async function recordedAsImage(knex: Knex, id: string): Promise<boolean> {
  return (await Image.query(knex).select('id').findById(id)) !== undefined;
}

/** Runs one upload through the worker; answers the stored image or throws the spec's error. */
export async function uploadImage(services: UploadServices, upload: ImageUpload): Promise<StoredImage> {
  const outcome = await runUpload(services, upload);
  if ('recorded' in outcome) {
    const row = (await Image.query(services.knex).findById(outcome.recorded))!;
    return presentImage(row, (key) => services.media.url(key));
  }
  if ('image' in outcome.answer) return outcome.answer.image;
  throw answerError(outcome.answer);
}

/** Runs a capture's upload through the worker; answers the id of the capture row it recorded. */
export async function uploadCapture(services: UploadServices, upload: ImageUpload): Promise<string> {
  const outcome = await runUpload(services, { ...upload, purpose: 'screenshot' });
  if ('recorded' in outcome) return outcome.recorded;
  if ('capture' in outcome.answer) return outcome.answer.capture.id;
  throw answerError(outcome.answer, 'Captures');
}

/**
 * Stages the file, hands the upload to the worker in one transaction with its row, and waits. Answers the
 * worker's answer, or `recorded` (the row's id) when the wait ended in a failure after the worker had
 * already recorded what the upload became.
 */
async function runUpload(
  services: UploadServices,
  upload: ImageUpload,
): Promise<{ answer: ImageJobAnswer } | { recorded: string }> {
  const id = randomUUID();
  const stagingKey = `staging/${id}`;
  try {
    // Claimed before it is written, and released when the upload's row commits: a crash in between
    // leaves a key media.cleanup removes, never an unscreened original that nothing points at. The claim
    // commits at once, outside a keyed request's transaction (request-transaction.ts), which a crash
    // would roll back with the claim in it while the staged file stays; and on the prepared statements'
    // own pool, since that request already holds one connection of the query pool (so many keyed uploads
    // at once would wait on each other for a second).
    await outsideRequestTransaction(() =>
      queryPrepared(services.knex, 'jogatina_staging_claim', 'INSERT INTO orphaned_media (storage_key) VALUES ($1)', [
        stagingKey,
      ]),
    );
    await services.media.putFile(stagingKey, upload.path, 'application/octet-stream');
  } catch (error) {
    services.log.error({ err: error }, 'could not stage an upload');
    throw internal('upload_unavailable', 'Uploads cannot be stored right now; try again later.');
  }
  try {
    const answer = await services.replies.requestInTransaction<ImageJobAnswer>(
      'image.process',
      { timeoutMs: services.images.waitMs, busyAt: services.images.busyAt },
      async (trx, jobId) => {
        await upload.handingOver?.(trx);
        await StagedUpload.query(trx).insert({
          id,
          account_id: upload.accountId,
          purpose: upload.purpose,
          app_id: upload.appId ?? null,
          staging_key: stagingKey,
          capture: upload.capture ?? null,
        });
        await OrphanedMedia.query(trx).deleteById(stagingKey);
        await sendJob(trx, 'image.process', { upload_id: id }, { id: jobId });
      },
    );
    return { answer };
  } catch (error) {
    // The worker may have recorded the upload just as the wait ran out: then the upload succeeded.
    if (await discardUpload(services, id, stagingKey, upload.recordedAs ?? recordedAsImage)) return { recorded: id };
    throw uploadError(services.log, error);
  }
}

/**
 * Removes what is left of an upload the worker will not finish: its row (so a late worker records
 * nothing), then its staged object. Answers true instead when the worker recorded it first (an image, or
 * a capture, takes its upload's id).
 */
async function discardUpload(
  services: UploadServices,
  id: string,
  stagingKey: string,
  recordedAs: (knex: Knex, id: string) => Promise<boolean>,
): Promise<boolean> {
  try {
    // The row's trigger queues the staged object in the same statement.
    const deleted = await StagedUpload.query(services.knex).deleteById(id);
    if (deleted === 0) {
      const recorded = await recordedAs(services.knex, id);
      if (recorded) return true;
    }
    await removeOrphans(services.knex, services.media, [stagingKey]);
  } catch (error) {
    // The key stays in orphaned_media, where media.cleanup finds it.
    services.log.warn({ err: error, staging_key: stagingKey }, 'could not remove a staged upload yet');
  }
  return false;
}

function uploadError(log: Logger, error: unknown): unknown {
  if (error instanceof JobTimeoutError) {
    log.error({ err: error }, 'an image upload got no answer in time');
    return internal('upload_unavailable', 'Image processing did not answer in time; try again later.');
  }
  if (error instanceof JobFailedError) {
    log.error({ err: error }, 'an image upload failed in the worker');
    return internal('upload_failed', 'The image could not be processed.');
  }
  return error;
}

/** The spec's error for an answer that is not what the upload asked for; `held` names what the quota counts. */
function answerError(answer: ImageJobAnswer, held = 'Layout images'): ApiError {
  if ('image' in answer || 'capture' in answer) return internal('upload_failed', 'The upload became something else.');
  if ('refused' in answer) return invalidRequest(answer.refused.message, { reason: answer.refused.reason });
  if ('quota' in answer) return quotaExceeded(answer.quota, held);
  if ('screeningUnavailable' in answer) {
    return internal('screening_unavailable', 'Uploads cannot be checked right now, so none are accepted.');
  }
  return internal('upload_failed', answer.failed);
}

/** 409 `quota_exceeded` with the quota's numbers; `held` names what it counts ("Layout images"). */
export function quotaExceeded(quota: LayoutQuota, held = 'Layout images'): ApiError {
  return conflict(
    'quota_exceeded',
    quota,
    `${held} are limited to ${quota.limit} and ${quota.bytes_limit} bytes; delete one to make room.`,
  );
}
