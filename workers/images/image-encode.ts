// Fitting an upload into its profile's box, then encoding it within the profile's byte budget: AVIF for
// stills, animated WebP for animations. The decode happens once, to raw pixels; every encode attempt (and
// the screening frames) starts from those.
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { inputOptions, invalidImage, type ImageHeader } from './image-inspect.js';
import { formatBytes, ImageRefusal } from '../../shared/media/image-refusals.js';
import type { ImageProfile } from '../../shared/media/image-profiles.js';

/** The upload decoded, oriented and fitted: 8-bit sRGB pixels, frames stacked top to bottom. */
export interface FittedImage {
  data: Buffer;
  width: number;
  /** Height of one frame. */
  height: number;
  channels: 3 | 4;
  frames: number;
  delays: number[] | null;
  loop: number;
}

export async function decodeFitted(input: Buffer, header: ImageHeader, profile: ImageProfile): Promise<FittedImage> {
  // The header said the pixel count is within the limit; the limit here is a guard against a header
  // that lies, and a decoder that meets one has been handed a broken image.
  let pipeline = sharp(input, inputOptions(header.format, profile.maxPixels));
  // sharp cannot rotate multi-page images, so EXIF orientation is applied to stills only (an orientation
  // tag on an animated WebP is rare, and browsers do not agree on honouring it).
  if (!header.animated) pipeline = pipeline.autoOrient();
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await pipeline
      .resize(profile.fit.width, profile.fit.height, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw invalidImage();
  }
  const { data, info } = decoded;
  const frames = header.animated ? (info.pages ?? 1) : 1;
  if (frames !== header.frames || (info.channels !== 3 && info.channels !== 4)) throw invalidImage();
  return {
    data,
    width: info.width,
    height: info.height / frames,
    channels: info.channels,
    frames,
    delays: header.delays,
    loop: header.loop,
  };
}

interface Codec {
  startQuality: number;
  /** Below this the result looks visibly broken; an image that needs less is refused as too_heavy. */
  floorQuality: number;
  /** d(ln bytes)/d(quality), measured on photos and noise; only steers the next guess. */
  sizeGrowthPerQuality: number;
  encode(image: FittedImage, quality: number): Promise<Buffer>;
}

/**
 * AVIF through libaom, on one thread (sharp's concurrency is 1 on glibc, and more did not help here), at
 * effort 1. At the same quality the efforts give the same picture and nearly the same size; the higher
 * ones spend their time searching for a few percent of bytes. A 1600x1200 photo at quality 64: effort 3
 * 1.2 s, 211 KiB, PSNR 37.63 dB against the fitted pixels; effort 1 0.2 to 0.3 s, 217 KiB, 37.46 dB
 * (effort 4, sharp's default, took 4 to 9 s). Quality 64 puts photos of that size around 200 to 300 KB.
 * Quality 50 (sharp's default) is the floor: a still that needs less to stay under 1 MiB is noise, not
 * a picture, and at quality 20 even pure noise fits, which would make too_heavy unreachable.
 */
const AVIF: Codec = {
  startQuality: 64,
  floorQuality: 50,
  sizeGrowthPerQuality: 0.045,
  encode: (image, quality) => rawInput(image).avif({ quality, effort: 1 }).toBuffer(),
};

/**
 * Still WebP, for captures (a 4K screen), at effort 1 and quality 81: a photo-like 3840x2160 in 0.3 s,
 * 856 KiB, PSNR 35.51 dB, where effort 4 (the default) took 1.0 s for 836 KiB and 35.70 dB at quality 80
 * (effort 1 at 80: 817 KiB, 35.32 dB; effort 2 was both slower and larger).
 */
const STILL_WEBP: Codec = {
  startQuality: 81,
  floorQuality: 50,
  sizeGrowthPerQuality: 0.022,
  encode: (image, quality) => rawInput(image).webp({ quality, effort: 1 }).toBuffer(),
};

/**
 * Animated WebP, at effort 1: 100 frames of 400x300 in 0.34 s, 58 KiB, PSNR 43.92 dB, where effort 4
 * (the default) took 0.95 s for 47 KiB and 44.12 dB. Its size moves less with quality than AVIF's, hence
 * the wider range.
 */
const ANIMATED_WEBP: Codec = {
  startQuality: 75,
  floorQuality: 40,
  sizeGrowthPerQuality: 0.022,
  encode: (image, quality) =>
    rawInput(image)
      .webp({ quality, effort: 1, delay: image.delays ?? undefined, loop: image.loop })
      .toBuffer(),
};

function rawInput(image: FittedImage): Sharp {
  const { width, height, channels, frames } = image;
  const pageHeight = frames > 1 ? height : undefined;
  return sharp(image.data, { raw: { width, height: height * frames, channels, pageHeight } });
}

export interface EncodedImage {
  data: Buffer;
  quality: number;
  /** How many encodes it took, for measuring the stepping. */
  encodes: number;
}

export function encodeStill(
  image: FittedImage,
  budget: { targetBytes: number; maxBytes: number },
  format: 'avif' | 'webp' = 'avif',
): Promise<EncodedImage> {
  return encodeWithinBudget(format === 'webp' ? STILL_WEBP : AVIF, image, budget.targetBytes, budget.maxBytes);
}

/** Animations have no target below their limit: they are big by nature, and each encode is dear. */
export function encodeAnimation(image: FittedImage, budget: { maxBytes: number }): Promise<EncodedImage> {
  return encodeWithinBudget(ANIMATED_WEBP, image, budget.maxBytes, budget.maxBytes);
}

/**
 * A still's thumbnail: WebP fitted inside the box, one encode at a fixed quality. It is small by its size
 * alone (a 640 px photo is about 30 KB), so no budget steps it down. effort 4 is WebP's default.
 */
export async function encodeThumbnail(
  image: FittedImage,
  box: { width: number; height: number; quality: number },
): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await rawInput(image)
    .resize(box.width, box.height, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: box.quality, effort: 4 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

// Aim a little under the target so that the second encode usually is the last one.
const AIM = 0.9;
const MIN_STEP = 4;

async function encodeWithinBudget(
  codec: Codec,
  image: FittedImage,
  targetBytes: number,
  maxBytes: number,
): Promise<EncodedImage> {
  let quality = codec.startQuality;
  for (let encodes = 1; ; encodes++) {
    const data = await codec.encode(image, quality);
    if (data.length <= targetBytes) return { data, quality, encodes };
    if (quality <= codec.floorQuality) {
      if (data.length <= maxBytes) return { data, quality, encodes };
      throw new ImageRefusal(
        'too_heavy',
        `The image has too much fine detail to fit in ${formatBytes(maxBytes)} (it takes ${formatBytes(data.length)} at the lowest quality we use); simplify or shrink it.`,
      );
    }
    // Size grows about exponentially with quality, so the overshoot's logarithm says how far down to go.
    const drop = Math.ceil(Math.log(data.length / (targetBytes * AIM)) / codec.sizeGrowthPerQuality);
    quality = Math.max(codec.floorQuality, quality - Math.max(MIN_STEP, drop));
  }
}
