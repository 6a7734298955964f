// The image upload pipeline's process-local core: bytes in, a refusal or an optimized image out. It runs in
// an image thread (image-thread.ts) and touches no database, queue or storage.
import sharp from 'sharp';
import { decodeFitted, encodeAnimation, encodeStill, encodeThumbnail, type FittedImage } from './image-encode.js';
import { sniffImageFormat } from './image-format.js';
import { inspectImage } from './image-inspect.js';
import { formatBytes, ImageRefusal } from '../../shared/media/image-refusals.js';
import { IMAGE_PROFILES, type ImageProfileName } from '../../shared/media/image-profiles.js';
import type { EncodedImage, EncodedThumbnail } from '../../shared/media/rows.js';

/** What the thread hands back (EncodedImage), with the encoder's Buffers and what the rules needed. */
export interface ProcessedImage extends Omit<EncodedImage, 'data' | 'thumbnail'> {
  data: Buffer;
  thumbnail: (Omit<EncodedThumbnail, 'data'> & { data: Buffer }) | null;
  frames: number;
  /** Sum of the frame delays; null for a still. */
  durationMs: number | null;
}

/** Frames are raw RGB (3 channels, no alpha), SCREEN_SIZE x SCREEN_SIZE each. Throws ImageRefusal('sensitive_image', ...) or any other error to stop. */
export type FrameScreen = (frames: Uint8Array[]) => Promise<void>;

export const SCREEN_SIZE = 224;

/** An animation is screened on this many frames at most, spread evenly from the first to the last. */
const SCREENED_FRAMES = 4;

/**
 * Refusals are ImageRefusal; anything else (a failing screen, a bug) propagates as it is. The screen
 * runs before the encode, which is the expensive part, so a refused image costs little. A profile that
 * flags explicit images keeps the image and answers `sensitive: true` instead of the refusal.
 */
export async function processImage(
  input: Buffer,
  profile: ImageProfileName,
  screen: FrameScreen,
): Promise<ProcessedImage> {
  const limits = IMAGE_PROFILES[profile];
  if (input.length > limits.maxInputBytes) {
    throw new ImageRefusal(
      'too_large',
      `The file is ${formatBytes(input.length)}; at most ${formatBytes(limits.maxInputBytes)} is accepted.`,
    );
  }
  const format = await sniffImageFormat(input, limits.formats);
  const header = await inspectImage(input, format, limits);
  const image = await decodeFitted(input, header, limits);

  const sensitive = await screened(screen, await screeningFrames(image), limits.explicit);

  if (header.animated && limits.animation) {
    const { data } = await encodeAnimation(image, limits.animation);
    return {
      data,
      contentType: 'image/webp',
      extension: 'webp',
      width: image.width,
      height: image.height,
      bytes: data.length,
      animated: true,
      sensitive,
      thumbnail: null,
      frames: image.frames,
      durationMs: header.durationMs,
    };
  }
  const { data } = await encodeStill(image, limits.still, limits.stillFormat);
  const thumbnail = limits.thumbnail && (await encodeThumbnail(image, limits.thumbnail));
  return {
    data,
    contentType: `image/${limits.stillFormat}`,
    extension: limits.stillFormat,
    width: image.width,
    height: image.height,
    bytes: data.length,
    animated: false,
    sensitive,
    thumbnail: thumbnail && { ...thumbnail, bytes: thumbnail.data.length },
    frames: 1,
    durationMs: null,
  };
}

/** Runs the screen: false when it passes, true when it finds the image explicit and the profile flags. */
async function screened(screen: FrameScreen, frames: Uint8Array[], explicit: 'refuse' | 'flag'): Promise<boolean> {
  try {
    await screen(frames);
    return false;
  } catch (error) {
    if (explicit === 'flag' && error instanceof ImageRefusal && error.reason === 'sensitive_image') return true;
    throw error;
  }
}

/** Which frames an animation is screened on: the first, the last and evenly between. */
export function screenedFrameIndexes(frames: number): number[] {
  const count = Math.min(frames, SCREENED_FRAMES);
  if (count === 1) return [0];
  return Array.from({ length: count }, (_, i) => Math.round((i * (frames - 1)) / (count - 1)));
}

/** The screen's view: each sampled frame squashed to SCREEN_SIZE square, transparency shown on white. */
async function screeningFrames(image: FittedImage): Promise<Uint8Array[]> {
  const { width, height, channels } = image;
  const frameBytes = width * height * channels;
  return Promise.all(
    screenedFrameIndexes(image.frames).map((index) =>
      sharp(image.data.subarray(index * frameBytes, (index + 1) * frameBytes), { raw: { width, height, channels } })
        .resize(SCREEN_SIZE, SCREEN_SIZE, { fit: 'fill' })
        .flatten({ background: '#ffffff' })
        .raw()
        .toBuffer(),
    ),
  );
}
