// The limits that can be checked from the header, before a single pixel is decoded: a 20000x20000 PNG of a
// few hundred KB must cost a header read, not 1.2 GB of pixels.
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { isAnimatedPng, isAvifSequence, type ImageFormat } from './image-format.js';
import { formatCount, ImageRefusal } from '../../shared/media/image-refusals.js';
import type { ImageProfile } from '../../shared/media/image-profiles.js';

export interface ImageHeader {
  format: ImageFormat;
  /** Width and height of one frame as stored (before EXIF orientation). */
  width: number;
  height: number;
  frames: number;
  animated: boolean;
  /** Per-frame delays in ms, for animations only. */
  delays: number[] | null;
  durationMs: number | null;
  /** Times the animation plays, 0 for ever (libvips' convention, which WebP output takes as it is). */
  loop: number;
}

// The loader libvips must pick for each sniffed format; anything else means the bytes are not what they seem.
const LOADER_OF_FORMAT: Record<ImageFormat, Metadata['format']> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  avif: 'heif',
};

/**
 * Options for every sharp instance that reads the upload. Only GIF and WebP are read as animations: HEIF
 * "pages" are the other top-level images of the file (we want the primary one), PNG and JPEG have none.
 * failOn 'warning' makes libjpeg's "corrupt data" and "premature end" stop the decode instead of
 * producing a grey remainder; it is sharp's default, spelled out because invalid_image depends on it.
 */
export function inputOptions(format: ImageFormat, limitInputPixels: number | false): SharpOptions {
  return { animated: readsFrames(format), failOn: 'warning', limitInputPixels };
}

function readsFrames(format: ImageFormat): boolean {
  return format === 'gif' || format === 'webp';
}

const ANIMATED_CONTAINER_MESSAGE = 'Animated PNG and AVIF are not supported; upload an animated GIF or WebP instead.';

/** Reads the header and refuses what the profile does not take; the checks go from cheapest to dearest. */
export async function inspectImage(input: Buffer, format: ImageFormat, profile: ImageProfile): Promise<ImageHeader> {
  if ((format === 'png' && isAnimatedPng(input)) || (format === 'avif' && isAvifSequence(input))) {
    throw new ImageRefusal('unsupported_animation', ANIMATED_CONTAINER_MESSAGE);
  }

  let metadata: Metadata;
  try {
    // No pixel limit here: metadata() decodes nothing, and we want the real count for the message below.
    metadata = await sharp(input, inputOptions(format, false)).metadata();
  } catch {
    throw invalidImage();
  }
  if (metadata.format !== LOADER_OF_FORMAT[format] || !metadata.width || !metadata.height) throw invalidImage();

  const frames = readsFrames(format) ? (metadata.pages ?? 1) : 1;
  const width = metadata.width;
  const height = frames > 1 ? (metadata.pageHeight ?? metadata.height / frames) : metadata.height;
  const animated = frames > 1;
  const animation = profile.animation;

  if (animated && !animation) {
    throw new ImageRefusal('unsupported_animation', 'Animations are not accepted here; upload a still image.');
  }
  if (frames > profile.maxFrames) {
    throw new ImageRefusal(
      'too_many_frames',
      `The animation has ${formatCount(frames)} frames; at most ${formatCount(profile.maxFrames)} are allowed.`,
    );
  }
  const pixels = width * height * frames;
  if (pixels > profile.maxPixels) {
    const what = animated ? `${formatCount(frames)} frames of ${width}x${height}` : `${width}x${height}`;
    throw new ImageRefusal(
      'too_many_pixels',
      `The image has ${formatCount(pixels)} pixels (${what}); at most ${formatCount(profile.maxPixels)} are allowed, every frame counted.`,
    );
  }
  if (!animated || !animation) {
    return { format, width, height, frames: 1, animated: false, delays: null, durationMs: null, loop: 0 };
  }

  // Players disagree on what a frame without a duration (or with 0) means, so such animations are refused
  // rather than given a duration we would have to guess.
  const delays = (metadata.delay ?? []).slice(0, frames);
  const missing = delays.length < frames ? delays.length : delays.findIndex((delay) => !(delay > 0));
  if (missing >= 0) {
    throw new ImageRefusal(
      'unsupported_animation',
      `Every frame of an animation needs a duration above 0; frame ${missing + 1} has none.`,
    );
  }
  const durationMs = delays.reduce((sum, delay) => sum + delay, 0);
  if (durationMs > animation.maxDurationMs) {
    throw new ImageRefusal(
      'animation_too_long',
      `The animation lasts ${seconds(durationMs)}; the limit here is ${seconds(animation.maxDurationMs)}.`,
    );
  }
  return {
    format,
    width,
    height,
    frames,
    animated,
    delays,
    durationMs,
    loop: metadata.loop ?? 0,
  };
}

export function invalidImage(): ImageRefusal {
  return new ImageRefusal('invalid_image', 'The image is damaged or incomplete and cannot be decoded.');
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}
