// The rows and shapes of images (upload, stored image, the worker's answer), and the rules of each
// purpose: data every side of an upload shares (the web's staging, the worker's encoding and recording).
import type { ImageRefusalReason } from './image-refusals.js';
import type { ImageProfileName } from './image-profiles.js';

export const IMAGE_PURPOSES = [
  'layout',
  'avatar',
  'banner',
  'app_icon',
  'arcade_icon',
  'arcade_tile',
  'arcade_cover',
  'arcade_screenshot',
  'screenshot',
] as const;
export type ImagePurpose = (typeof IMAGE_PURPOSES)[number];

/**
 * The output rules and storage folder of each purpose. Avatars and icons follow the spec's avatar rules;
 * a banner spans the page, so it follows the layout image rules (fit 1600x1600) instead. Arcade store-page
 * images follow the spec's slot rules: icons and tiles as avatars, covers and screenshots as layout images
 * that may not animate (the `still` profile). Only their own routes give them meaning: recording one
 * replaces nothing, as the store page's revisions decide which are in use. A `screenshot` is a person's own
 * capture: recorded as a `screenshots` row (shared/screenshots), not an `images` row.
 */
export const PURPOSES: Record<ImagePurpose, { profile: ImageProfileName; folder: string }> = {
  layout: { profile: 'layout', folder: 'layout' },
  avatar: { profile: 'avatar', folder: 'avatars' },
  banner: { profile: 'layout', folder: 'banners' },
  app_icon: { profile: 'avatar', folder: 'icons' },
  arcade_icon: { profile: 'avatar', folder: 'arcade/icons' },
  arcade_tile: { profile: 'avatar', folder: 'arcade/tiles' },
  arcade_cover: { profile: 'still', folder: 'arcade/covers' },
  arcade_screenshot: { profile: 'still', folder: 'arcade/screenshots' },
  screenshot: { profile: 'capture', folder: 'screenshots' },
};

/** Where a capture's thumbnails are stored (beside its images, in a folder of their own). */
export const CAPTURE_THUMBNAIL_FOLDER = 'screenshots/thumbnails';

/** Earlier avatars and banners kept per kind; older ones are forgotten as new ones arrive. */
export const PICTURE_HISTORY_LIMIT = 10;

/** What a capture's author sends beside its image (DECISIONS: Screenshots), defaults applied. */
export interface CaptureFields {
  game_id: number;
  description: string;
  contains_spoilers: boolean;
  visibility: 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE';
}

/** What the API shows of a stored image. */
export interface StoredImage {
  id: string;
  url: string;
  width: number;
  height: number;
  bytes: number;
  animated: boolean;
  created_at: string;
}

/** The worker's answer to the waiting route. */
export type ImageJobAnswer =
  | { image: StoredImage }
  /** A capture recorded: its row id (the route reads it as the gallery shows it). */
  | { capture: { id: string } }
  | { refused: { reason: ImageRefusalReason; message: string } }
  | { quota: LayoutQuota }
  | { screeningUnavailable: string }
  | { failed: string };

/** Spec: Layout image quota, per account. */
export const LAYOUT_QUOTA = { limit: 15, bytes_limit: 10_485_760 } as const;

/** A quota as the spec shows it (layout images, captures): its limits and what is held. */
export interface LayoutQuota {
  limit: number;
  count: number;
  bytes_limit: number;
  bytes: number;
}

/** What the worker's image thread hands back for one image (plain data: it crosses a thread). */
export interface EncodedImage {
  data: Uint8Array;
  contentType: 'image/avif' | 'image/webp';
  extension: 'avif' | 'webp';
  width: number;
  height: number;
  bytes: number;
  animated: boolean;
  /** Screening found it explicit; only for profiles that flag instead of refusing. */
  sensitive: boolean;
  /** The WebP thumbnail of profiles that have one, else null. */
  thumbnail: EncodedThumbnail | null;
}

export interface EncodedThumbnail {
  data: Uint8Array;
  width: number;
  height: number;
  bytes: number;
}
