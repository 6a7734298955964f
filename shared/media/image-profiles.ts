// What each kind of upload becomes. The box, budgets and animation limits come from the spec; how hard the
// encoders work to meet the budgets is image-encode.ts's business.
export type ImageProfileName = 'layout' | 'avatar' | 'still' | 'capture';

/** The formats an upload may be, as its content says (the order is the one messages name them in). */
export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export interface ImageProfile {
  name: ImageProfileName;
  /** What this kind of upload takes; any other format is `invalid_format`. */
  formats: readonly ImageFormat[];
  /** The box the image is fitted inside (never enlarged). */
  fit: { width: number; height: number };
  maxInputBytes: number;
  /** An animation may have this many frames, not more. */
  maxFrames: number;
  /** Width x frame height x frames, so long animations cannot hide behind small frames. */
  maxPixels: number;
  /** A still becomes AVIF of about targetBytes, never more than maxBytes. */
  still: { targetBytes: number; maxBytes: number };
  /** An animation becomes animated WebP; null when this kind of upload takes stills only. */
  animation: null | { maxBytes: number; maxDurationMs: number };
  /** A WebP copy fitted inside this box beside the image; null when this kind of upload has none. */
  thumbnail: null | { width: number; height: number; quality: number };
  /** The format a still is stored in. */
  stillFormat: 'avif' | 'webp';
  /** What screening does with an explicit image: refuse it (`sensitive_image`), or keep it flagged. */
  explicit: 'refuse' | 'flag';
}

const KiB = 1024;
const MiB = 1024 * KiB;

const COMMON = {
  formats: IMAGE_FORMATS,
  maxInputBytes: 15 * MiB,
  maxFrames: 300,
  maxPixels: 40_000_000,
  thumbnail: null,
  stillFormat: 'avif',
  explicit: 'refuse',
} as const;

export const IMAGE_PROFILES: Record<ImageProfileName, ImageProfile> = {
  // Images placed in profile layouts.
  layout: {
    name: 'layout',
    fit: { width: 1600, height: 1600 },
    ...COMMON,
    still: { targetBytes: 300 * KiB, maxBytes: 1 * MiB },
    animation: { maxBytes: 3 * MiB, maxDurationMs: 10_000 },
  },
  // App icons, Arcade icons and tiles.
  avatar: {
    name: 'avatar',
    fit: { width: 512, height: 512 },
    ...COMMON,
    still: { targetBytes: 150 * KiB, maxBytes: 500 * KiB },
    animation: { maxBytes: 4 * MiB, maxDurationMs: 15_000 },
  },
  // Arcade covers and screenshots.
  still: {
    name: 'still',
    fit: { width: 1600, height: 1600 },
    ...COMMON,
    still: { targetBytes: 300 * KiB, maxBytes: 1 * MiB },
    animation: null,
  },
  // People's own captures (DECISIONS: Screenshots): up to 3840 px wide (a 4K screen), and tall enough for a
  // phone's portrait capture at that width; every encoder takes the height. The budget fits the quota's
  // mean (5 GB over 2,000 captures); a 4K photo-like capture lands around 600 KB at the first quality tried.
  // Screening flags rather than refuses: the gallery shows a flagged capture behind a warning.
  capture: {
    name: 'capture',
    fit: { width: 3840, height: 8640 },
    ...COMMON,
    // Stills only: a GIF is an animation's format.
    formats: ['jpeg', 'png', 'webp', 'avif'],
    // WebP: AVIF took 3.5 to 6 s for a 4K capture on one core at the effort layout images then used (1 s
    // at effort 0), WebP 0.3 s at a similar size (about 860 KB for a photo-like 3840x2160), against 1.5 s
    // end to end for the whole upload.
    stillFormat: 'webp',
    still: { targetBytes: 1 * MiB, maxBytes: 4 * MiB },
    animation: null,
    thumbnail: { width: 640, height: 1440, quality: 75 },
    explicit: 'flag',
  },
};
