// The reference's words for the owner's profile layout and its images (spec: Profile and layout; docs/api-notes.md:
// Layout versions, Layout documents, Images, Layout images). The example document is exported for the
// visitors' route (GET /profiles/{username}/layout), which answers the same document.
import { IMAGE_REFUSAL_REASONS } from '../../../shared/media/image-refusals.js';
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { PROFILE_ANSWERS } from '../../openapi/shapes/profile.js';
import { Deleted } from '../../openapi/shapes/pages-and-images.js';

const MEDIA = 'https://jogatina.example/media';
const IMAGE_ID = '5b0e2f7c-3d6a-4c1e-9f2b-8a4d6e1c7b90';

/** A schema-2 document with a flow section and a canvas section, and every kind of element. */
export const LAYOUT_EXAMPLE = {
  schema: 2,
  page: {
    width: 'wide',
    density: 'comfortable',
    background: { media: { kind: 'media', id: IMAGE_ID }, fit: 'cover', position: 'top', dim: 55, tone: 'auto' },
  },
  sections: [
    {
      id: 'main',
      kind: 'flow',
      background: null,
      columns: [
        {
          span: 8,
          blocks: [
            {
              id: 'identity',
              type: 'identity',
              visibility: { mobile: true, tablet: true, desktop: true },
              config: {},
            },
            {
              id: 'about',
              type: 'text',
              visibility: { mobile: true, tablet: true, desktop: true },
              style: { background: { media: { kind: 'cover', slug: 'hollow-knight' }, dim: 60, tone: 'dark' } },
              config: { text: 'Metroidvanias e RPGs longos.', align: 'left' },
            },
          ],
        },
        {
          span: 4,
          blocks: [
            {
              id: 'favourites',
              type: 'showcase',
              visibility: { mobile: false, tablet: true, desktop: true },
              config: { games: ['hollow-knight', 'celeste'] },
            },
            {
              id: 'shot',
              type: 'image',
              visibility: { mobile: true, tablet: true, desktop: true },
              config: { source: { kind: 'screenshot', id: 'k3x9q2vz' }, caption: 'Cidade das Lágrimas' },
            },
          ],
        },
      ],
    },
    {
      id: 'hero',
      kind: 'canvas',
      background: null,
      aspect: 0.5,
      phone: 'stack',
      elements: [
        {
          id: 'hero-image',
          type: 'image',
          box: { x: 0, y: 0, w: 1, h: 0.5 },
          rotation: 0,
          opacity: 1,
          locked: true,
          visibility: { mobile: true, tablet: true, desktop: true },
          config: { source: { kind: 'media', id: IMAGE_ID } },
        },
        {
          id: 'hero-title',
          type: 'text',
          box: { x: 0.05, y: 0.05, w: 0.6, h: 0.1 },
          rotation: 0,
          opacity: 1,
          locked: false,
          visibility: { mobile: true, tablet: true, desktop: true },
          config: { text: 'Bem-vindo!', size: 0.05, align: 'left' },
        },
        {
          id: 'hero-line',
          type: 'shape',
          box: { x: 0.05, y: 0.16, w: 0.4, h: 0.01 },
          rotation: 0,
          opacity: 0.8,
          locked: false,
          visibility: { mobile: false, tablet: true, desktop: true },
          config: { shape: 'line', fill: null, stroke: '#f5c542', thickness: 0.004 },
        },
        {
          id: 'hero-stats',
          type: 'block',
          box: { x: 0.65, y: 0.3, w: 0.3, h: 0.15 },
          rotation: 0,
          opacity: 1,
          locked: false,
          visibility: { mobile: true, tablet: true, desktop: true },
          config: { block: { type: 'stats', config: {} } },
        },
      ],
    },
  ],
};

/** The `media` map of a layout answer: image id to what drawing it needs. */
export const LAYOUT_MEDIA_EXAMPLE = {
  [IMAGE_ID]: { url: `${MEDIA}/layout/${IMAGE_ID}.avif`, width: 1600, height: 900, animated: false },
};

const image = {
  id: IMAGE_ID,
  url: `${MEDIA}/layout/${IMAGE_ID}.avif`,
  width: 1600,
  height: 900,
  bytes: 287412,
  animated: false,
  created_at: '2026-11-20T14:03:27.512Z',
};

/** What the image pipeline refuses or fails with on every upload route, beyond the upload reader's own. */
export const IMAGE_PIPELINE_ERRORS: ErrorRef[] = [
  ...IMAGE_REFUSAL_REASONS.map((reason) => `invalid_request:${reason}` as const),
  'rate_limited:busy',
  'internal:upload_unavailable',
  'internal:screening_unavailable',
  'internal:upload_failed',
];

/** A version sent that is not the current one: 409 with the current version in `error.version`. */
const VERSION_CONFLICT: ErrorRef = 'conflict';

export const LAYOUT_DOCS = {
  read: doc({
    summary: 'Your profile layout: draft, published copy and versions',
    description:
      'With nothing saved: the default layout as `draft`, `version` 0, `customized` false. A stored draft this build only partly reads loses the parts it cannot read (`draft_incomplete` true; saving over it deletes them); one that does not read at all shows as the default under its real version, so the next save succeeds. `media` maps every layout image you hold, id to `{ url, width, height, animated }`.',
    headers: { 'Cache-Control': '`no-store`.' },
    response: PROFILE_ANSWERS.layout,
    example: {
      data: {
        draft: LAYOUT_EXAMPLE,
        published: LAYOUT_EXAMPLE,
        version: 7,
        published_version: 6,
        published_at: '2026-11-20T14:10:02.118Z',
        updated_at: '2026-11-21T09:45:30.004Z',
        customized: true,
        draft_incomplete: false,
        media: LAYOUT_MEDIA_EXAMPLE,
      },
    },
  }),
  save: doc({
    summary: 'Save the layout draft',
    description: [
      'Send the `version` you last read (0 when nothing is saved, also after a reset). A save in between answers 409 `conflict` with the current version in `error.version`; an identical draft keeps its version. The published copy does not change.',
      'An invalid document answers 400 `invalid_request` with `error.issues` (at most 20), each `{ code, message, path, type }`; codes: `shape`, `duplicate_id`, `spans`, `too_many_blocks`, `too_many_of_type`, `too_many_elements`, `out_of_bounds`, `required_missing`, `required_hidden`, `too_large`.',
      'Limits: 1 to 12 sections, 1 to 3 columns whose spans add up to 12, 12 blocks a column, 24 elements a canvas, 40 blocks and 80 elements in all, 48000 bytes of UTF-8 as stored; exactly one `identity` block, always visible; at most 4 of each content block type. Images are references (`{kind: media|screenshot, id}`, `{kind: cover, slug}`), never URLs. A schema-1 document is stored upgraded to schema 2; the removed colour keys are dropped, not refused.',
    ].join('\n\n'),
    errors: ['invalid_request', VERSION_CONFLICT],
    response: PROFILE_ANSWERS.layoutSaved,
    example: { data: { version: 8, updated_at: '2026-11-21T09:47:12.330Z' } },
  }),
  publish: doc({
    summary: 'Publish a draft version',
    description:
      'Visitors then see the draft of that `version`. A draft changed since answers 409 `conflict` with `error.version`; with no saved layout, 404.',
    errors: ['not_found', VERSION_CONFLICT],
    response: PROFILE_ANSWERS.layoutPublished,
    example: { data: { version: 8, published_at: '2026-11-21T09:48:00.905Z' } },
  }),
  reset: doc({
    summary: 'Back to the default layout',
    description:
      'Removes draft and published copy; everyone sees the default. Repeating it is not an error; the next save sends version 0.',
    response: PROFILE_ANSWERS.layoutReset,
    example: { data: { reset: true } },
  }),
  images: doc({
    summary: 'Your layout images and quota',
    description:
      'Newest first. `in_use`: the draft or the published layout names the image. An image no layout has named for 7 days is removed automatically. `quota`: at most 15 images and 10485760 bytes.',
    headers: { 'Cache-Control': '`no-store`.' },
    response: PROFILE_ANSWERS.layoutImages,
    example: {
      data: [{ ...image, in_use: true }],
      quota: { limit: 15, bytes_limit: 10485760, count: 1, bytes: 287412 },
    },
  }),
  upload: doc({
    summary: 'Upload a layout image',
    description: [
      'JPEG, PNG, WebP, GIF or AVIF, up to 15 MB; at most 300 frames and 40 million pixels (frames counted). Shrunk to fit 1600x1600, never enlarged. A still becomes AVIF of about 300 KB, never over 1 MB; a GIF or WebP animation becomes WebP up to 3 MB and 10 seconds. Metadata is stripped and the content screened (`sensitive_image`).',
      'Refused before the file is read when 15 images or 10 MB are held (409 `quota_exceeded` with `limit`, `count`, `bytes_limit`, `bytes`), and after encoding when this one would pass 10 MB. Counts toward the account’s 30 layout image uploads per 10 minutes (refused uploads too), a count of their own: avatar, banner and app icon uploads do not spend it. 429 `busy` while processing is full.',
    ].join('\n\n'),
    status: 201,
    errors: [...IMAGE_PIPELINE_ERRORS, 'conflict:quota_exceeded'],
    response: PROFILE_ANSWERS.layoutImage,
    example: { data: image },
  }),
  deleteImage: doc({
    summary: 'Delete a layout image',
    description:
      'While the draft or the published layout names it: 409 `in_use`, unless `force=true` (the layout then keeps a gap). An id that is not one of your layout images is 404.',
    errors: ['not_found', 'conflict:in_use'],
    response: Deleted,
    example: { data: { id: IMAGE_ID, deleted: true } },
  }),
};
