// The reference's words for the account's apps, their keys and icons (spec: Account routes; DECISIONS:
// API keys and allowances; docs/api-notes.md: Apps and keys, App icons).
import { IMAGE_REFUSAL_REASONS } from '../../../shared/media/image-refusals.js';
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { ACCOUNT_ANSWERS } from '../../openapi/shapes/account.js';

const APP_ID = '5b1e7c2a-8f43-4d0e-9a6b-2c7d81f0e934';
const ARCADE_APP_ID = 'c3a9d4e1-6b2f-4a87-8e15-0d9f7b6c2a41';

const key = {
  id: '0f8a3c6e-2b7d-4e19-a5c4-93d1e6b7f820',
  app_id: APP_ID,
  name: 'Discord bot',
  last4: '9c2e',
  created_at: '2026-11-03T14:22:05.118Z',
  expires_at: null,
  last_used_at: '2026-11-20T08:41:37.902Z',
  revoked_at: null,
  state: 'live',
};
const revokedKey = {
  id: '8d2b6f14-5c3e-4a90-b7e1-4f6a2c9d0e53',
  app_id: APP_ID,
  name: 'Old laptop script',
  last4: '07ab',
  created_at: '2026-10-11T19:02:44.610Z',
  expires_at: '2027-10-11T19:02:44.610Z',
  last_used_at: '2026-10-30T22:15:09.004Z',
  revoked_at: '2026-11-02T10:00:12.337Z',
  state: 'revoked',
};
/** The one answer that shows a token: `KEY_PREFIX` and 32 lowercase hex, ending in the key's `last4`. */
const token = 'jgt_live_4f1d9b7e03a2c86f5e0b9d17a4c39c2e';

const app = {
  id: APP_ID,
  name: 'Estante bot',
  description: 'Posts the games I finish to our Discord server.',
  icon_url: 'https://jogatina.example/media/icons/7d0c5e2a-91b4-4c3f-8a6e-1f2b3c4d5e6f.avif',
  scopes: ['library.read', 'profile.read'],
  created_at: '2026-10-11T18:55:30.221Z',
  updated_at: '2026-11-03T14:20:41.507Z',
  active_keys: 1,
  last_used_at: '2026-11-20T08:41:37.902Z',
  arcade: null,
  events: null,
};
const arcadeApp = {
  id: ARCADE_APP_ID,
  name: 'Lanterna',
  description: '',
  icon_url: null,
  scopes: [],
  created_at: '2026-09-02T12:10:03.845Z',
  updated_at: '2026-09-02T12:10:03.845Z',
  active_keys: 0,
  last_used_at: null,
  arcade: {
    slug: 'lanterna',
    status: 'listed',
    hidden_reason: null,
    notice: null,
    live_release_number: 3,
    listing: { approved: true, pending: false, draft: false, rejected: false },
    releases: { draft: 1, pending: 0, ready: 0, rejected_latest: false },
    data_events: { pending: 2, held: 0, failed: 0 },
  },
  events: null,
};
const newApp = {
  ...app,
  description: '',
  icon_url: null,
  scopes: [],
  updated_at: app.created_at,
  active_keys: 0,
  last_used_at: null,
};

const APP_NOT_FOUND: ErrorRef[] = ['not_found:app_not_found'];
const KEYS_ORDER = 'Live keys first, then newest first; never a token (it is shown once, when the key is made).';
/** The account's collections come whole (DECISIONS, Fine print). */
const ONE_PAGE =
  'The list comes whole on one page: `page` is number 1 of 1 with `size` equal to `total_items` (0 pages when empty).';
/** `page` of a whole list of `n` items. */
const onePage = (n: number) => ({ number: 1, size: n, total_items: n, total_pages: n > 0 ? 1 : 0, has_more: false });
const APP_WORDS =
  '`arcade` is null for an app without an Arcade game, else its summary: `slug`, `status`, `hidden_reason`, `notice` (suspended, flagged or hidden, with `reason` and `at`), `live_release_number`, `listing` and `releases` counts, `data_events` {pending, held, failed}.';

/** What the image pipeline refuses (docs/api-notes.md: Images), and how it fails. */
const ICON_ERRORS: ErrorRef[] = [
  ...APP_NOT_FOUND,
  ...IMAGE_REFUSAL_REASONS.map((reason): ErrorRef => `invalid_request:${reason}`),
  'rate_limited:busy',
  'internal:upload_unavailable',
  'internal:upload_failed',
  'internal:screening_unavailable',
];

export const APP_DOCS = {
  list: doc({
    summary: 'Your apps',
    description: `Every app of the account (at most 10), most recently changed first. ${APP_WORDS} ${ONE_PAGE}`,
    response: ACCOUNT_ANSWERS.apps,
    example: { data: [app, arcadeApp], page: onePage(2) },
  }),
  create: doc({
    summary: 'Create an app',
    description:
      'A new app has no scopes and no keys; give it scopes with `PATCH`. An account holds at most 10 apps: the 11th is 409 `app_limit_reached` with `limit` and `count`.',
    errors: ['conflict:app_limit_reached'],
    status: 201,
    response: ACCOUNT_ANSWERS.app,
    example: { data: newApp },
  }),
  get: doc({
    summary: 'One app with its keys',
    description: `The app and its \`keys\`. ${KEYS_ORDER} ${APP_WORDS} Another account's app, or a malformed id, is 404.`,
    errors: APP_NOT_FOUND,
    response: ACCOUNT_ANSWERS.appWithKeys,
    example: { data: { ...app, keys: [key, revokedKey] } },
  }),
  update: doc({
    summary: 'Change an app',
    description:
      'Only the fields sent change. `scopes` is the full set: a scope left out is removed. New scopes apply to every live key of the app from its next request; a scope removed fails the events not yet delivered of the types it gated (`scope_removed`). ' +
      '`events` {`url`, `types`} subscribes the app to events for integrations about your account (the `webhooks` of this reference), null turns them off. `url`: https on port 443, no query or fragment, a public domain name resolving to public addresses (400 `url_invalid` or `url_denied`, field `events.url`). `types`: 1 to all of the catalogue; a type whose scope the app does not hold (after this change) is 400 `fields_invalid`, field `events.types.N`. Setting `events` again re-enables a disabled subscription and sends the events that waited.',
    errors: [
      ...APP_NOT_FOUND,
      'invalid_request:url_invalid',
      'invalid_request:url_denied',
      'invalid_request:fields_invalid',
    ],
    response: ACCOUNT_ANSWERS.app,
    example: {
      data: {
        ...app,
        events: {
          url: 'https://estante.example/jogatina/events',
          types: ['library.entry.saved', 'profile.updated'],
          state: 'active',
          disabled_reason: null,
          pending: 0,
          failed: 0,
        },
      },
    },
  }),
  delete: doc({
    summary: 'Delete an app',
    description:
      'Deletes the app with its keys (they answer 401 `invalid_key` from the next request) and its icon. While the app has an Arcade game that is not removed: 409 `remove_from_arcade_first`.',
    errors: [...APP_NOT_FOUND, 'conflict:remove_from_arcade_first'],
    response: ACCOUNT_ANSWERS.appDeleted,
    example: { data: { id: APP_ID, deleted: true } },
  }),
  keys: doc({
    summary: 'An app’s keys',
    description: `${KEYS_ORDER} \`state\` is live, revoked or expired. ${ONE_PAGE}`,
    errors: APP_NOT_FOUND,
    response: ACCOUNT_ANSWERS.keys,
    example: { data: [key, revokedKey], page: onePage(2) },
  }),
  createKey: doc({
    summary: 'Create a key for an app',
    description:
      'The key acts as you within the app’s scopes. `token` is in this answer only: store it now, nobody can read it again. `expires_in_days` 1 to 3650; null or absent: never.',
    errors: APP_NOT_FOUND,
    status: 201,
    response: ACCOUNT_ANSWERS.newKey,
    example: { data: { ...key, last_used_at: null, token } },
  }),
  accountKeys: doc({
    summary: 'All your keys',
    description: `The keys of every app of the account. ${KEYS_ORDER} \`state\` is live, revoked or expired. ${ONE_PAGE}`,
    response: ACCOUNT_ANSWERS.keys,
    example: { data: [key, revokedKey], page: onePage(2) },
  }),
  createAccountKey: doc({
    summary: 'Create a key, naming its app',
    description:
      'As `POST /account/apps/{id}/keys` with the app in `app_id`. `token` is in this answer only. `expires_in_days` 1 to 3650; null or absent: never. An app that is not yours is 404.',
    errors: APP_NOT_FOUND,
    status: 201,
    response: ACCOUNT_ANSWERS.newKey,
    example: { data: { ...key, last_used_at: null, token } },
  }),
  revokeKey: doc({
    summary: 'Revoke a key',
    description:
      'The key answers 401 `invalid_key` from the next request. Revoking a revoked key answers 200 with the key as it is. Another account’s key, or a malformed id, is 404.',
    errors: ['not_found:key_not_found'],
    response: ACCOUNT_ANSWERS.key,
    example: { data: revokedKey },
  }),
  uploadIcon: doc({
    summary: 'Set an app’s icon',
    description:
      'Multipart field `image` (JPEG, PNG, WebP, GIF or AVIF, up to 15 MB), treated as an avatar: fitted in 512x512 (never enlarged); a still becomes AVIF of at most 500 KB, an animation animated WebP of at most 4 MB and 15 s; at most 300 frames and 40 million pixels counting every frame; content-screened. The new icon replaces the old one. Counts toward the account’s 30 picture uploads per 10 minutes (avatar, banner and app icons together; layout images have their own). `id` is the icon’s. Another account’s app is 404 before the file is read.',
    errors: ICON_ERRORS,
    status: 201,
    response: ACCOUNT_ANSWERS.icon,
    example: {
      data: {
        id: '7d0c5e2a-91b4-4c3f-8a6e-1f2b3c4d5e6f',
        icon_url: 'https://jogatina.example/media/icons/2a6f8e10-3b5c-4d7e-9f01-a2b3c4d5e6f7.avif',
      },
    },
  }),
  deleteIcon: doc({
    summary: 'Remove an app’s icon',
    description: 'Removing an icon that is not there is not an error. `id` is the app’s.',
    errors: APP_NOT_FOUND,
    response: ACCOUNT_ANSWERS.iconRemoved,
    example: { data: { id: APP_ID, icon_url: null } },
  }),
};
