// The web side of every image upload: stage the original where a worker can read it, send the
// `image.process` job in the same transaction as the upload's row, wait a bounded time for the answer,
// and turn the answer into the route's result or the spec's error. The staged original never outlives
// the job: the worker removes it, and a wait that runs out removes it here after cancelling the job.
import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, internal, invalidRequest, type ApiError } from '../errors.js';
import { JobFailedError, JobTimeoutError, type JobReplies } from '../jobs/request-reply.js';
import type { Logger } from '../logger.js';
import { sendJob } from '../queue.js';
import type { ImageConfig } from '../config.js';
import type { ImageJobAnswer, ImagePurpose, StoredImage } from './image-records.js';
import type { MediaStorage } from './media-storage.js';
import { removeOrphans } from './orphaned-media.js';

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
        await sendJob(trx, 'image.process', { upload_id: id }, { id: jobId });
      },
    );
  } catch (error) {
    await discardUpload(services, id, stagingKey);
    throw uploadError(services.log, error);
  }
  return answerOf(answer);
}

/** Removes what is left of an upload the worker will not finish: its row, then its staged object. */
async function discardUpload(services: UploadServices, id: string, stagingKey: string): Promise<void> {
  try {
    // The row's trigger queues the staged object; removing the row first keeps a late worker from starting.
    await services.knex('image_uploads').where({ id }).delete();
    await services.knex('orphaned_media').insert({ storage_key: stagingKey }).onConflict().ignore();
    await removeOrphans(services.knex, services.media, [stagingKey]);
  } catch (error) {
    // media.cleanup removes it later from orphaned_media.
    services.log.warn({ err: error, staging_key: stagingKey }, 'could not remove a staged upload yet');
  }
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

export interface LayoutQuota {
  limit: number;
  count: number;
  bytes_limit: number;
  bytes: number;
}

export function quotaExceeded(quota: LayoutQuota): ApiError {
  return conflict(
    'quota_exceeded',
    quota,
    `Layout images are limited to ${quota.limit} and ${quota.bytes_limit} bytes; delete one to make room.`,
  );
}
