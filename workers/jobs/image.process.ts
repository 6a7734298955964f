// image.process: one upload, start to finish. Reads the staged original, has an image thread decode,
// screen and encode it, stores the result and records its row (a capture: its two files and its
// `screenshots` row), then removes the staged original whatever happened. A refusal is an answer, not a
// failure: the job completes and the route reports the reason. Every output file is queued in
// orphaned_media before it is written (its temporary file, if the storage has one, is swept by
// media.cleanup after a crash), and when the upload fails after storing some of its files (a full disk
// refusing a capture's thumbnail, the database failing the record) they are removed at once: a refused
// upload leaves nothing served.
import { randomUUID } from 'node:crypto';
import { recordImage } from '../../shared/media/image-records.js';
import { recordCapture } from '../../shared/screenshots/capture-records.js';
import { removeOrphans, removeUnrecorded } from '../../shared/media/orphaned-media.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobContext, JobHandler } from '../job-context.js';
import { CAPTURE_THUMBNAIL_FOLDER, PURPOSES, type EncodedImage, type ImageJobAnswer } from '../../shared/media/rows.js';
import { presentImage } from '../../shared/media/presenters.js';
import { OrphanedMedia, StagedUpload, type UploadRow } from '../../shared/media/models.js';

export const processImageJob: JobHandler<JobPayloads['image.process']> = async ({ upload_id }, context) => {
  const upload = await StagedUpload.query(context.knex).findById(upload_id);
  // The route gave up and removed the upload: nobody waits for this one.
  if (!upload) return { failed: 'the upload is gone' } satisfies ImageJobAnswer;
  try {
    return await processUpload(upload, context);
  } finally {
    await StagedUpload.query(context.knex).deleteById(upload.id);
    await removeOrphans(context.knex, context.media, [upload.staging_key]).catch((error: unknown) =>
      context.log.warn({ err: error, key: upload.staging_key }, 'staged upload left for media.cleanup'),
    );
  }
};

async function processUpload(upload: UploadRow, context: JobContext): Promise<ImageJobAnswer> {
  const input = await context.media.read(upload.staging_key);
  if (!input) return { failed: 'the staged upload is missing' };
  const { profile, folder } = PURPOSES[upload.purpose];
  const result = await context.images.process(input, profile);
  if (!result.ok) {
    if ('refused' in result) return { refused: result.refused };
    context.log.error({ detail: result.screeningUnavailable }, 'screening unavailable');
    return { screeningUnavailable: result.screeningUnavailable };
  }
  const name = randomUUID();
  const key = `${folder}/${name}.${result.image.extension}`;
  if (upload.purpose === 'screenshot') {
    return storeCapture(upload, key, `${CAPTURE_THUMBNAIL_FOLDER}/${name}.webp`, result.image, context);
  }
  const outcome = await unlessFailed(context, [key], async () => {
    await store(context, key, result.image.data, result.image.contentType);
    return recordImage(context.knex, upload.id, key, result.image);
  });
  if ('row' in outcome) {
    // Files of the rows this upload replaced; what fails here stays queued for media.cleanup.
    await removeOrphans(context.knex, context.media, outcome.replaced).catch(() => undefined);
    return { image: presentImage(outcome.row, (k) => context.media.url(k)) };
  }
  await removeOrphans(context.knex, context.media, [key]);
  if ('quota' in outcome) return { quota: outcome.quota };
  return { failed: 'the upload was withdrawn' };
}

/** Claimed before it is written: a crash from here until its row commits leaves a key media.cleanup removes. */
async function store(context: JobContext, key: string, data: Uint8Array, contentType: string): Promise<void> {
  await OrphanedMedia.query(context.knex).insert({ storage_key: key }).onConflict().ignore();
  await context.media.put(key, Buffer.from(data), contentType);
}

/**
 * Runs the storing and recording of `keys`; when it throws, removes at once whichever of them no row
 * recorded (removeUnrecorded keeps a key whose row committed), then throws the same error (the job fails
 * and the route answers 500). A removal that fails leaves the keys queued for media.cleanup.
 */
async function unlessFailed<T>(context: JobContext, keys: string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await removeUnrecorded(context.knex, context.media, keys).catch((removal: unknown) =>
      context.log.warn({ err: removal, keys }, 'files of a failed upload left for media.cleanup'),
    );
    throw error;
  }
}

/** A capture: the image and its thumbnail stored, then the capture row recorded (or both files removed). */
async function storeCapture(
  upload: UploadRow,
  key: string,
  thumbnailKey: string,
  image: EncodedImage,
  context: JobContext,
): Promise<ImageJobAnswer> {
  const thumbnail = image.thumbnail!;
  // The image is served from the moment it is stored: a thumbnail that cannot be stored must not leave
  // it behind (the route answers 500, so nobody will ever name it).
  const outcome = await unlessFailed(context, [key, thumbnailKey], async () => {
    await store(context, key, image.data, image.contentType);
    await store(context, thumbnailKey, thumbnail.data, 'image/webp');
    return recordCapture(context.knex, upload.id, { key, thumbnailKey, image });
  });
  if ('id' in outcome) return { capture: { id: outcome.id } };
  await removeOrphans(context.knex, context.media, [key, thumbnailKey]);
  if ('quota' in outcome) return { quota: outcome.quota };
  return { failed: 'the upload was withdrawn' };
}
