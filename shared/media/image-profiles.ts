// What each kind of upload becomes. The box, budgets and animation limits come from the spec; how hard the
// encoders work to meet the budgets is image-encode.ts's business.
export type ImageProfileName = 'layout' | 'avatar' | 'still';

export interface ImageProfile {
  name: ImageProfileName;
  /** Side of the square box the image is fitted inside (never enlarged). */
  fit: number;
  maxInputBytes: number;
  /** An animation may have this many frames, not more. */
  maxFrames: number;
  /** Width x frame height x frames, so long animations cannot hide behind small frames. */
  maxPixels: number;
  /** A still becomes AVIF of about targetBytes, never more than maxBytes. */
  still: { targetBytes: number; maxBytes: number };
  /** An animation becomes animated WebP; null when this kind of upload takes stills only. */
  animation: null | { maxBytes: number; maxDurationMs: number };
}

const KiB = 1024;
const MiB = 1024 * KiB;

const COMMON = { maxInputBytes: 15 * MiB, maxFrames: 300, maxPixels: 40_000_000 } as const;

export const IMAGE_PROFILES: Record<ImageProfileName, ImageProfile> = {
  // Images placed in profile layouts.
  layout: {
    name: 'layout',
    fit: 1600,
    ...COMMON,
    still: { targetBytes: 300 * KiB, maxBytes: 1 * MiB },
    animation: { maxBytes: 3 * MiB, maxDurationMs: 10_000 },
  },
  // App icons, Arcade icons and tiles.
  avatar: {
    name: 'avatar',
    fit: 512,
    ...COMMON,
    still: { targetBytes: 150 * KiB, maxBytes: 500 * KiB },
    animation: { maxBytes: 4 * MiB, maxDurationMs: 15_000 },
  },
  // Arcade covers and screenshots.
  still: {
    name: 'still',
    fit: 1600,
    ...COMMON,
    still: { targetBytes: 300 * KiB, maxBytes: 1 * MiB },
    animation: null,
  },
};
