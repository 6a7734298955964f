// Why an uploaded image is refused. The reason words are part of the API (clients branch on them); the
// message is an English sentence a client can show as it is.
export const IMAGE_REFUSAL_REASONS = [
  'invalid_format',
  'too_large',
  'invalid_image',
  'too_many_frames',
  'too_many_pixels',
  'animation_too_long',
  'unsupported_animation',
  'too_heavy',
  'sensitive_image',
] as const;

export type ImageRefusalReason = (typeof IMAGE_REFUSAL_REASONS)[number];

export class ImageRefusal extends Error {
  constructor(
    readonly reason: ImageRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'ImageRefusal';
  }
}

/** Whole numbers with thousands separators, the same whatever the process locale is. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** A byte count the way limits are announced: in MiB or KiB, exactly when the number is round. */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1024 * 1024, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
