// The reference's words for captures (DECISIONS: Screenshots; Shared rules; Refusals).
import { IMAGE_REFUSAL_REASONS } from '../../../shared/media/image-refusals.js';
import { doc, type ErrorRef } from '../../openapi/route-facts.js';
import { Deleted } from '../../openapi/shapes/pages-and-images.js';
import { CAPTURE_ANSWERS } from '../../openapi/shapes/screenshots.js';

const MEDIA = 'https://jogatina.example/media';
const CAPTURE_ID = 'k3x9q2vz7m4a';
const FILE = '0b7f4c1e-6a2d-4e9b-8c3f-5d1a7e2b9c40';

const capture = {
  id: CAPTURE_ID,
  game_id: 1942,
  description: 'Velen at dusk, before the storm.',
  contains_spoilers: false,
  sensitive: false,
  visibility: 'PUBLIC',
  image_url: `${MEDIA}/screenshots/${FILE}.avif`,
  image_width: 3840,
  image_height: 2160,
  thumbnail_url: `${MEDIA}/screenshots/thumbnails/${FILE}.webp`,
  thumbnail_width: 640,
  thumbnail_height: 360,
  likes: 4,
  comments: 1,
  awards: { stunning: 1 },
  removed: false,
  created_at: '2026-11-24T20:31:07.118Z',
  updated_at: '2026-11-25T08:02:44.630Z',
};
const newCapture = { ...capture, likes: 0, comments: 0, awards: {}, updated_at: capture.created_at };

const NOT_FOUND: ErrorRef[] = ['not_found:screenshot_not_found'];
/** What the image pipeline refuses or fails with, as on every upload route (layout images). */
const PIPELINE: ErrorRef[] = [
  ...IMAGE_REFUSAL_REASONS.filter((reason) => reason !== 'sensitive_image').map(
    (reason) => `invalid_request:${reason}` as const,
  ),
  'rate_limited:busy',
  'internal:upload_unavailable',
  'internal:screening_unavailable',
  'internal:upload_failed',
];
const FIELDS =
  '`description` up to 500 characters (code points), line breaks and tabs kept, no other control character; `visibility` PUBLIC, FOLLOWERS or PRIVATE; a `game_id` the catalog does not have is 400 `fields_invalid` field `game_id`.';
const SHAPE =
  'The capture as its own gallery (`GET /profiles/{username}/screenshots`) shows it, with `likes`, `comments` (those moderation removed left out), `awards` (`{award id: count}`), `removed` and `updated_at`.';

export const CAPTURE_DOCS = {
  create: doc({
    summary: 'Upload a capture',
    description: [
      `A form with the image in \`image\` and the capture’s fields beside it: \`game_id\` (required), \`description\`, \`contains_spoilers\`, \`visibility\`. Form fields are text: booleans are \`true\` or \`false\`, numbers are decimal; anything else is 400 \`wrong_type\`. ${FIELDS} Omitted: \`description\` "", \`contains_spoilers\` false, \`visibility\` PUBLIC. Keys with \`screenshots.write\` may upload (a capture tool is an integration).`,
      'The image: JPEG, PNG, WebP or AVIF, a still (an animation is 400 `unsupported_animation`, a GIF `invalid_format`), up to 15 MB and 40 million pixels. Metadata (EXIF, GPS, ICC text) is stripped; it is stored as AVIF fitted inside 3840x8640 (never enlarged) of about 1 MB, never over 4 MB (else `too_heavy`), with a WebP thumbnail fitted inside 640x1440. Content screening never refuses a capture: an explicit one is kept with `sensitive: true`. The other refusals and statuses are those of layout images.',
      'At most 2,000 captures and 5 GB (5368709120 bytes) per account, removed ones counted: refused before the file is read when either is reached, and after encoding when this one would pass 5 GB (409 `quota_exceeded` with `limit`, `count`, `bytes_limit`, `bytes`). 100 uploads per account in any 24 hours, each counted once it is handed to processing (a refused image counts, as its work was done; a refused field does not): then 429 `rate_limited` with `retry_after` (seconds until one is free), asked before the file is read too. Parallel uploads cannot pass either limit.',
      `It shows in the feed at once (an item of kind \`screenshot\`). ${SHAPE}`,
    ].join('\n\n'),
    status: 201,
    errors: [...PIPELINE, 'invalid_request:fields_invalid', 'conflict:quota_exceeded'],
    response: CAPTURE_ANSWERS.capture,
    example: { data: newCapture },
  }),
  update: doc({
    summary: 'Change your capture',
    description: `Only the fields sent change (\`updated_at\` with them): \`description\`, \`game_id\`, \`contains_spoilers\`, \`visibility\`; a new \`game_id\` moves the capture’s feed item to that game. ${FIELDS} Another account’s capture, or none: 404 \`screenshot_not_found\`. A capture moderation removed cannot be changed: 403 \`forbidden\` reason \`removed\` (it can be deleted). An empty body changes nothing and answers the capture. ${SHAPE}`,
    errors: [...NOT_FOUND, 'invalid_request:fields_invalid', 'forbidden:removed'],
    response: CAPTURE_ANSWERS.capture,
    example: { data: { ...capture, description: 'Velen at dusk.', contains_spoilers: true } },
  }),
  delete: doc({
    summary: 'Delete your capture',
    description:
      'Deletes the capture, removed by moderation or not, at once: it leaves the gallery, its counts and the feed, with its likes and the comments on it. Its files are removed by the daily media cleanup once no layout of yours names the capture (`{kind: screenshot, id}` in the draft or the published layout), so a published page keeps its picture until you change it. Another account’s capture, or none: 404 `screenshot_not_found`. Deleting gives no upload back to the daily 100.',
    errors: NOT_FOUND,
    response: Deleted,
    example: { data: { id: CAPTURE_ID, deleted: true } },
  }),
};
