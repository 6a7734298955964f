// The worker thread that decodes, screens and encodes one image. sharp works on libuv's pool but the
// classifier runs on the JavaScript thread, so both live here, off the worker process's event loop, where
// other jobs keep running (immich #27742). Everything crossing the thread boundary is plain data.
import { ImageRefusal, type ImageRefusalReason } from './image-refusals.js';
import { processImage, type ProcessedImage } from './image-pipeline.js';
import type { ImageProfileName } from './image-profiles.js';
import { screenFrames, ScreeningUnavailableError, type ScreeningOptions } from './image-screening.js';

export interface ImageTask {
  input: Uint8Array;
  profile: ImageProfileName;
  screening: ScreeningOptions;
}

/** What crosses back from the thread (a Buffer arrives as a plain Uint8Array). */
export type EncodedImage = Omit<ProcessedImage, 'data' | 'frames' | 'durationMs'> & { data: Uint8Array };

export type ImageTaskResult =
  | { ok: true; image: EncodedImage }
  | { ok: false; refused: { reason: ImageRefusalReason; message: string } }
  | { ok: false; screeningUnavailable: string };

export default async function processInThread(task: ImageTask): Promise<ImageTaskResult> {
  try {
    const image = await processImage(Buffer.from(task.input), task.profile, screenFrames(task.screening));
    const { data, contentType, extension, width, height, bytes, animated } = image;
    return { ok: true, image: { data, contentType, extension, width, height, bytes, animated } };
  } catch (error) {
    if (error instanceof ImageRefusal) return { ok: false, refused: { reason: error.reason, message: error.message } };
    if (error instanceof ScreeningUnavailableError) return { ok: false, screeningUnavailable: error.message };
    throw error;
  }
}
