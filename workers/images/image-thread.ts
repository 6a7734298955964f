// The worker thread that decodes, screens and encodes one image. sharp works on libuv's pool but the
// classifier runs on the JavaScript thread, so both live here, off the worker process's event loop, where
// other jobs keep running (immich #27742). Everything crossing the thread boundary is plain data.
import { workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { ImageRefusal, type ImageRefusalReason } from '../../shared/media/image-refusals.js';
import { processImage } from './image-pipeline.js';
import type { EncodedImage } from '../../shared/media/rows.js';
import type { ImageProfileName } from '../../shared/media/image-profiles.js';
import { screenFrames, ScreeningUnavailableError, type ScreeningOptions } from './image-screening.js';

/** What each image thread is started with (image-pool.ts). */
export interface ImageThreadData {
  sharpConcurrency: number;
}

// Set on purpose from the machine's cores by the pool (image-pool.ts: sharpConcurrency).
if ((workerData as Partial<ImageThreadData> | null)?.sharpConcurrency) {
  sharp.concurrency((workerData as ImageThreadData).sharpConcurrency);
}

export interface ImageTask {
  input: Uint8Array;
  profile: ImageProfileName;
  screening: ScreeningOptions;
}

export type ImageTaskResult =
  | { ok: true; image: EncodedImage }
  | { ok: false; refused: { reason: ImageRefusalReason; message: string } }
  | { ok: false; screeningUnavailable: string };

export default async function processInThread(task: ImageTask): Promise<ImageTaskResult> {
  try {
    const image = await processImage(Buffer.from(task.input), task.profile, screenFrames(task.screening));
    const { data, contentType, extension, width, height, bytes, animated, sensitive, thumbnail } = image;
    // What crosses back from the thread (a Buffer arrives as a plain Uint8Array).
    const encoded: EncodedImage = {
      data,
      contentType,
      extension,
      width,
      height,
      bytes,
      animated,
      sensitive,
      thumbnail,
    };
    return { ok: true, image: encoded };
  } catch (error) {
    if (error instanceof ImageRefusal) return { ok: false, refused: { reason: error.reason, message: error.message } };
    if (error instanceof ScreeningUnavailableError) return { ok: false, screeningUnavailable: error.message };
    throw error;
  }
}
