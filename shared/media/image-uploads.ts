// The web side of every image upload: stage the original where a worker can read it, send the
// `image.process` job in the same transaction as the upload's row, wait a bounded time for the answer,
// and turn the answer into the route's result or the spec's error. The staged original never outlives
// the job: the worker removes it, and a wait that runs out removes it here after cancelling the job.
import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, internal, invalidRequest, type ApiError } from '../platform/errors.js';
import { JobFailedError, JobTimeoutError, type JobReplies } from '../platform/jobs/request-reply.js';
import type { Logger } from '../platform/logger.js';
import { sendJob } from '../platform/jobs/queue.js';
import type { ImageConfig } from '../platform/config.js';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from './orphaned-media.js';
import type { ImageJobAnswer, ImagePurpose, ImageRow, StoredImage } from './rows.js';
import { presentImage } from './presenters.js';
import type { LayoutQuota } from './rows.js';

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
}

/** Runs one upload through the worker; answers the stored image or throws the spec's error. */
export async function uploadImage(services: UploadServices, upload: ImageUpload): Promise<StoredImage> {
  const id = randomUUID();
  const stagingKey = `staging/${id}`;
  try {
    // Claimed before it is written, and released when the upload's row commits: a crash in between
    // leaves a key media.cleanup removes, never an unscreened original that nothing points at.
    await services.knex('orphaned_media').insert({ storage_key: stagingKey });
    await services.media.put(stagingKey, createReadStream(upload.path), 'application/octet-stream');
  } catch (error) {
    services.log.error({ err: error }, 'could not stage an upload');
    throw internal('upload_unavailable', 'Uploads cannot be stored right now; try again later.');
  }
  let answer: ImageJobAnswer;
  try {
    answer = await services.replies.requestInTransaction<ImageJobAnswer>(
      'image.process',
      { timeoutMs: services.images.waitMs, busyAt: services.images.busyAt },
      async (trx, jobId) => {
        await trx('image_uploads').insert({
          id,
          account_id: upload.accountId,
          purpose: upload.purpose,
          app_id: upload.appId ?? null,
          staging_key: stagingKey,
        });
        await trx('orphaned_media').where({ storage_key: stagingKey }).delete();
        await sendJob(trx, 'image.process', { upload_id: id }, { id: jobId });
      },
    );
  } catch (error) {
    // The worker may have recorded the image just as the wait ran out: then the upload succeeded.
    const recorded = await discardUpload(services, id, stagingKey);
    if (recorded) return presentImage(recorded, (key) => services.media.url(key));
    throw uploadError(services.log, error);
  }
  return answerOf(answer);
}

/**
 * Removes what is left of an upload the worker will not finish: its row (so a late worker records
 * nothing), then its staged object. Answers the image instead when the worker recorded it first.
 */
async function discardUpload(services: UploadServices, id: string, stagingKey: string): Promise<ImageRow | null> {
  try {
    // The row's trigger queues the staged object in the same statement.
    const deleted = await services.knex('image_uploads').where({ id }).delete();
    if (deleted === 0) {
      const recorded: ImageRow | undefined = await services.knex('images').where({ id }).first();
      if (recorded) return recorded;
    }
    await removeOrphans(services.knex, services.media, [stagingKey]);
  } catch (error) {
    // The key stays in orphaned_media, where media.cleanup finds it.
    services.log.warn({ err: error, staging_key: stagingKey }, 'could not remove a staged upload yet');
  }
  return null;
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

function answerOf(answer: ImageJobAnswer): StoredImage {
  if ('image' in answer) return answer.image;
  throw answerError(answer);
}

function answerError(answer: Exclude<ImageJobAnswer, { image: StoredImage }>): ApiError {
  if ('refused' in answer) return invalidRequest(answer.refused.message, { reason: answer.refused.reason });
  if ('quota' in answer) return quotaExceeded(answer.quota);
  if ('screeningUnavailable' in answer) {
    return internal('screening_unavailable', 'Uploads cannot be checked right now, so none are accepted.');
  }
  return internal('upload_failed', answer.failed);
}

export function quotaExceeded(quota: LayoutQuota): ApiError {
  return conflict(
    'quota_exceeded',
    quota,
    `Layout images are limited to ${quota.limit} and ${quota.bytes_limit} bytes; delete one to make room.`,
  );
}
