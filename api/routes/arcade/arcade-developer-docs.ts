// The reference's words for a developer's first steps and store page (spec arcade.md: Terms, Developer
// routes; docs/api-notes.md, Arcade): eligibility, enabling, terms, the store-page draft, its images and
// removing the game. Releases are in arcade-release-docs.ts, the development URL in arcade-override-docs.ts.
import { doc } from '../../openapi/route-facts.js';
import { appRecord, approvedListing, eligibility, GAME, listing, MOVE, PUBLISHING, TERMS } from './arcade-examples.js';
import { ARCADE_ANSWERS } from '../../openapi/shapes/arcade-answers.js';

export const ARCADE_DEVELOPER_DOCS = {
  eligibility: doc({
    summary: 'Arcade eligibility and the game of an app',
    description:
      'Answers any session of the owner that does not owe its second factor, so `two_factor` and `mfa_session` can be read as false. `app` is null until Arcade is enabled. `eligible` leaves the terms out (enabling accepts them); when `terms.accepted` differs from `terms.current`, accept again. `arcade_apps.limit` is null for an invited account. Another account’s app is 404 `app_not_found`.',
    errors: GAME,
    response: ARCADE_ANSWERS.eligibility,
    example: { data: { eligibility, app: appRecord } },
  }),
  enable: doc({
    summary: 'Enable Arcade on an app',
    description: [
      'Reserves `slug` for good (3 to 40 of a-z, 0-9 and hyphens, none at either end; never reused, even after removal) and accepts `terms_version`, which must equal `eligibility.terms.current`. Only `slug` and `terms_version` are taken. The body is judged before anything else: another field is 400 `fields_invalid`, a `terms_version` that is not a string 403 `terms_required`, a `slug` that is not a string 400 `slug_invalid`.',
      '',
      'Refusals in this order: 404 `app_not_found`; 429 past 5 enables a day per account (only successful ones count); 403 `not_allowlisted` (only while open publishing is off), `two_factor_required`, `mfa_required`, `email_unverified`, `account_too_new`, `adult_required`, `terms_required` (field `terms_version`; also while new terms are being published, when the version is not the one this server read for the request, even if the database already holds it: read `eligibility` again and retry shortly), `banned`, `publisher_blocked`; 400 `slug_invalid`, `slug_reserved`; 409 `already_enabled`, `arcade_app_limit` (with `limit` and `count`; invited accounts have no limit), `slug_taken`. The game starts as `draft`.',
    ].join('\n'),
    errors: [
      ...GAME,
      'invalid_request:fields_invalid',
      'rate_limited:rate_limited',
      'forbidden:not_allowlisted',
      'forbidden:two_factor_required',
      'forbidden:email_unverified',
      'forbidden:account_too_new',
      'forbidden:adult_required',
      ...TERMS,
      ...PUBLISHING,
      'invalid_request:slug_invalid',
      'invalid_request:slug_reserved',
      'conflict:already_enabled',
      'conflict:arcade_app_limit',
      'conflict:slug_taken',
    ],
    status: 201,
    response: ARCADE_ANSWERS.app,
    example: {
      data: {
        app: {
          ...appRecord,
          status: 'draft',
          listing: { approved: null, pending: null, draft: null, rejected: null },
          releases: [],
          data_events: { pending: 0, held: 0, failed: 0, oldest_pending_at: null },
          events: appRecord.events.slice(1),
        },
      },
    },
  }),
  termsText: doc({
    summary: 'Read the current developer terms',
    description:
      'The current version (what `terms_version` must equal when enabling Arcade or accepting), its text as shown to developers, and the SHA-256 of that text (lowercase hex of its UTF-8 bytes), which accepting that version records. Answers any session that does not owe its second factor, as the eligibility does.',
    response: ARCADE_ANSWERS.termsText,
    example: {
      data: {
        version: '2026-11',
        text: 'Jogatina Arcade developer terms (2026-11)\n\n1. You publish only games you have the right to publish, and you answer for what they do.\n',
        sha256: 'a89b44309d2816e2a4248d656f6ad5e251c955818808e3bc876b2317686e6801',
      },
    },
  }),
  terms: doc({
    summary: 'Accept the current developer terms',
    description:
      'Body `{ terms_version }`, which must equal `eligibility.terms.current` (else 403 `terms_required` with field `terms_version`; also while new terms are being published, when the version is not the one this server read for the request, even if the database already holds it: retry shortly); any other field is 400 `fields_invalid`. Recorded with the SHA-256 of the text of that version. 10 recorded acceptances a day per account (a refusal spends none), then 429 with `retry_after`.',
    errors: ['invalid_request:fields_invalid', ...TERMS, 'rate_limited:rate_limited'],
    response: ARCADE_ANSWERS.terms,
    example: { data: { terms: { current: '2026-11', accepted: '2026-11' } } },
  }),
  listing: doc({
    summary: 'Save the store page draft',
    description:
      'Creates or replaces the single draft with every field of the store page table (all required). Without a draft, it starts from the newest approved revision, images included. Answers the spec’s `listing` object, as the app record shows it: `approved`, `pending`, `draft` and `rejected`, each a revision or null. Refused with 409 `listing_locked` while a submitted revision waits for moderation, and 400 `fields_invalid` naming the first refused `field` in the table’s order (`description.en`, `tags.2`; a reserved word gives `name_reserved` or `tagline_reserved`: official, support and the like as whole words, the service’s name Jogatina even inside a word (`Jogatinas`, `J0gatina`), case, accents and look-alike letters folded). A body of the wrong shape (a field missing, unknown or of the wrong type, a value outside the table’s lists) is answered before the game is looked up.',
    errors: [...GAME, ...MOVE, ...PUBLISHING, 'invalid_request:fields_invalid', 'conflict:listing_locked'],
    response: ARCADE_ANSWERS.listing,
    example: { data: { listing: appRecord.listing } },
  }),
  submitListing: doc({
    summary: 'Submit the store page draft for review',
    description:
      'The draft becomes `pending` in the answered `listing` object (`approved`, `pending`, `draft`, `rejected`, each a revision or null) and is locked (409 `listing_locked`) until moderation approves or rejects it; players keep seeing the approved revision until then, except that a higher `age_rating` applies to the store page and the directory at once (a lower one waits for the approval). 404 `listing_not_found` without a draft holding every field. 5 submissions a day per app (only those made count), then 429 with `retry_after`. The developer is emailed.',
    errors: [
      ...GAME,
      ...MOVE,
      ...PUBLISHING,
      ...TERMS,
      'rate_limited:rate_limited',
      'conflict:listing_locked',
      'not_found:listing_not_found',
    ],
    response: ARCADE_ANSWERS.listing,
    example: {
      data: {
        listing: {
          approved: approvedListing,
          pending: {
            ...listing,
            status: 'submitted',
            submitted_at: '2026-11-21T17:30:00.000Z',
            updated_at: '2026-11-21T17:30:00.000Z',
          },
          draft: null,
          rejected: null,
        },
      },
    },
  }),
  uploadMedia: doc({
    summary: 'Put an image in a store page slot',
    description: [
      'Multipart fields `kind` (icon, tile, cover, screenshot), `position` (0; 0 to 5 for screenshot) and one `file` (JPEG, PNG, WebP, GIF or AVIF, up to 15 MB). Icon and tile follow the avatar rules (512x512, may animate); cover and screenshot the layout rules, still only. The image goes into the draft (made from the approved revision when there is none).',
      '',
      'Refused before the file is read: 409 `listing_locked` while a revision is submitted, 429 past 30 uploads a day per app (with `retry_after`). Every problem with what was sent is 400 `media_invalid` with `detail`: `kind`, `position`, `file` (missing or more than one), or the image pipeline’s word (`too_large`, `invalid_format`, `unsupported_animation`, `too_many_pixels`, `sensitive_image`, ...). An upload counts once it reaches the pipeline, refused or not; one refused before it (kind, position, file) counts nothing.',
    ].join('\n'),
    errors: [
      ...GAME,
      ...MOVE,
      ...PUBLISHING,
      'conflict:listing_locked',
      'rate_limited:rate_limited',
      'invalid_request:media_invalid',
      'rate_limited:busy',
      'internal:upload_unavailable',
      'internal:upload_failed',
      'internal:screening_unavailable',
    ],
    status: 201,
    response: ARCADE_ANSWERS.mediaSet,
    example: { data: { kind: 'screenshot', position: 1, image_url: listing.screenshots[1] } },
  }),
  deleteMedia: doc({
    summary: 'Empty a store page slot',
    description:
      'Query `kind` and `position` as for the upload (else 400 `media_invalid` with `detail`). Changes only the draft; an already empty slot changes nothing. The image is deleted once no revision names it. 409 `listing_locked` while a revision is submitted.',
    errors: [...GAME, ...MOVE, ...PUBLISHING, 'invalid_request:media_invalid', 'conflict:listing_locked'],
    response: ARCADE_ANSWERS.mediaCleared,
    example: { data: { kind: 'screenshot', position: 1, image_url: null } },
  }),
  remove: doc({
    summary: 'Remove the game from Arcade',
    description:
      'Permanent: the game stops at once, its development URL is cleared, and its slug and origins stay claimed forever. Its rows are kept as evidence for 180 days. The developer is emailed. Reads still answer the game, with status `removed`; every developer move on it (store page, images, releases, checks, submit, withdraw, live, removing again) is then 409 `app_removed`, and moderation’s queue leaves its submissions out. Only after removal can the app itself be deleted.',
    errors: [...GAME, ...MOVE],
    response: ARCADE_ANSWERS.app,
    example: {
      data: {
        app: {
          ...appRecord,
          status: 'removed',
          events: [{ kind: 'removed', data: {}, at: '2026-11-22T10:00:00.000Z' }, ...appRecord.events],
        },
      },
    },
  }),
};
