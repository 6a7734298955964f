// The numbers and names of the profile layout document (spec: Profile layout document, schema 2;
// DECISIONS: the names the spec leaves open).
export const LIMITS = {
  sections: { min: 1, max: 12 },
  columnsPerFlow: { min: 1, max: 3 },
  gridColumns: 12,
  blocksPerColumn: 12,
  elementsPerCanvas: 24,
  totalBlocks: 40,
  totalElements: 80,
  bytes: 48000,
  issues: 20,
  aspect: { min: 0.2, max: 3 },
  minBoxSide: 0.001,
  dim: { min: 0, max: 80 },
  lineThickness: { min: 0.001, max: 0.05 },
  contentBlocksPerType: 4,
  /** How deep block options may nest, and how long one text may be (ours: the spec leaves them open). */
  configDepth: 4,
  textLength: 2000,
} as const;

export const PATTERNS = {
  id: /^[A-Za-z0-9_-]{1,64}$/,
  media_id: /^[A-Za-z0-9_-]{1,64}$/,
  slug: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  colour: /^#[0-9a-f]{6}$/i,
  // Config holds options and references, never markup, script or a URL.
  markup: /<\s*[a-z!/?]/i,
  url_like: /(?:[a-z][a-z0-9+.-]*:\/\/|^\s*(?:javascript|data|vbscript):|^\s*\/\/|\bwww\.)/i,
};

export const BLOCK_TYPES = [
  'identity',
  'shortcuts',
  'social',
  'stats',
  'showcase',
  'games',
  'reviews',
  'activity',
  'lists',
  'screenshots',
  'image',
  'comments',
  'text',
  'heading',
  'divider',
  'spacer',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** Blocks that count only toward the totals; every other type but identity is limited to 4 each. */
const UNLIMITED_BLOCK_TYPES: readonly BlockType[] = ['identity', 'image', 'text', 'heading', 'divider', 'spacer'];

/** At most 4 of each: showcase, games, reviews, activity, lists, screenshots, comments, stats, social, shortcuts. */
export const CONTENT_BLOCK_TYPES: readonly BlockType[] = BLOCK_TYPES.filter(
  (type) => !UNLIMITED_BLOCK_TYPES.includes(type),
);

export const ELEMENT_TYPES = ['image', 'text', 'shape', 'block'] as const;
/** The blocks a canvas `block` element may embed. */
export const EMBEDDABLE_BLOCK_TYPES: readonly BlockType[] = ['stats', 'social', 'heading', 'shortcuts', 'image'];

export const PAGE_WIDTHS = ['normal', 'wide', 'full'] as const;
export const PAGE_DENSITIES = ['compact', 'comfortable'] as const;
export const PHONE_MODES = ['scale', 'stack'] as const;
export const TONES = ['auto', 'light', 'dark'] as const;
/** Open in the spec; ours. */
export const BACKGROUND_FITS = ['cover', 'contain'] as const;
export const BACKGROUND_POSITIONS = [
  'center',
  'top',
  'bottom',
  'left',
  'right',
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
] as const;
export const SHAPES = ['rect', 'circle', 'line'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export const IMAGE_REF_KINDS = ['media', 'screenshot', 'cover'] as const;
