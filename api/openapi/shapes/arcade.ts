// Arcade's answers (spec arcade.md: Directory item, Store page, Release, Check, App Arcade record,
// Eligibility, Development URL, Grant, Key set; shared/arcade/presenters.ts, app-record.ts, directory.ts,
// eligibility.ts, override.ts, grants.ts, launch.ts).
import { AGE_RATINGS, LISTING_LOCALES, LISTING_TAGS } from '../../../shared/arcade/listing-rules.js';
import { HIDDEN_REASONS } from '../../../shared/arcade/review.js';
import { CAPABILITIES, RELEASE_SCOPES } from '../../../shared/arcade/release-rules.js';
import { ORIENTATIONS, PLATFORMS } from '../../../shared/arcade/field-rules.js';
import {
  anyObject,
  boolean,
  component,
  dateTime,
  integer,
  list,
  map,
  nullable,
  object,
  oneOf,
  string,
  uri,
  uuid,
} from '../response-schemas.js';

const GAME_STATUSES = ['draft', 'listed', 'hidden', 'suspended', 'removed'];
const RELEASE_STATUSES = ['draft', 'submitted', 'in_review', 'approved', 'rejected', 'withdrawn', 'revoked'];
const LISTING_STATUSES = ['draft', 'submitted', 'approved', 'rejected', 'superseded'];
const BLOCKED_REASONS = [
  'override_expired',
  'not_playable',
  'release_not_found',
  'listing_not_found',
  'origin_in_use',
  'url_denied',
];

const Tags = list(oneOf(LISTING_TAGS));
const Platforms = list(oneOf(PLATFORMS), 'desktop, mobile or both.');
const Orientation = oneOf(ORIENTATIONS);
export const Capabilities = list(oneOf(CAPABILITIES));
export const ReleaseScopes = list(oneOf(RELEASE_SCOPES), 'identify, or empty.');
export const ThirdParties = list(
  object({ origin: uri('Scheme and ASCII host, no path.'), purpose: string() }),
  'Everything the game loads from elsewhere.',
);

export const Notice = component(
  'ArcadeNotice',
  object(
    {
      kind: oneOf(['suspended', 'flagged', 'hidden']),
      reason: nullable(
        string(
          'For hidden: invariant, provider_change or reports; for suspended or flagged, moderation’s words (or null).',
        ),
      ),
      at: dateTime(),
    },
    { description: 'Why players cannot open the game.' },
  ),
);

export const Review = component(
  'ArcadeReview',
  object(
    {
      decision: oneOf(['approve', 'reject', 'revoke']),
      reasons: list(string(), 'Short codes.'),
      note: nullable(string('The reviewer’s note; never the reviewer’s name.')),
    },
    { description: 'Moderation’s decision on a release or store page revision.' },
  ),
);

/**
 * The members of a check a route may answer without: every check this service runs has all the spec's
 * members, but two test fixtures store partial findings straight in `arcade_checks`, so only `passed` and
 * `provider` are required until those fixtures are complete.
 */
const CHECK_MEMBERS_NOT_REQUIRED = [
  'proof_ok',
  'redirect_ok',
  'framing_ok',
  'status_code',
  'location',
  'content_type',
  'entry_sha256',
  'changed_since_approval',
  'network',
  'signals',
  'error',
];

const checkFindings = {
  passed: boolean('The entry answered 200 HTML, and proof, redirect and framing are ok.'),
  proof_ok: boolean('`/.well-known/jogatina-arcade.txt` lists the app id.'),
  redirect_ok: boolean('The entry ended on its own origin.'),
  framing_ok: boolean('The entry may be framed by the site.'),
  status_code: nullable(integer('The entry’s final status; null when no answer came.')),
  location: nullable(string('Where the entry ended after redirects.')),
  content_type: nullable(string()),
  entry_sha256: nullable(string('SHA-256 of the entry body, hex.')),
  changed_since_approval: boolean(),
  provider: string('The hosting provider, or `unknown`.'),
  network: string('The provider’s published range the address is in, or `unknown`.'),
  signals: list(string(), 'Short words explaining failures and observations, e.g. `proof_missing`.'),
  error: nullable(string('Why the host could not be checked (`address_denied`, `timeout`, ...).')),
};

/** A check's findings alone, as moderation's queue and report snapshots keep them. */
export const CheckFindings = component(
  'CheckFindings',
  object(checkFindings, { optional: CHECK_MEMBERS_NOT_REQUIRED }),
);

export const Check = component(
  'Check',
  object(
    { id: uuid(), ...checkFindings, checked_at: dateTime() },
    { optional: CHECK_MEMBERS_NOT_REQUIRED, description: 'spec: Check.' },
  ),
);

export const Release = component(
  'Release',
  object(
    {
      id: uuid(),
      number: integer(),
      status: oneOf(RELEASE_STATUSES),
      entry_url: uri(),
      entry_origin: uri(),
      capabilities: Capabilities,
      scopes: ReleaseScopes,
      orientation: Orientation,
      platforms: Platforms,
      third_parties: ThirdParties,
      data_events_url: nullable(uri()),
      notes: string('For the reviewer.'),
      created_at: dateTime(),
      updated_at: dateTime(),
      submitted_at: nullable(dateTime()),
      reviewed_at: nullable(dateTime()),
      approved_at: nullable(dateTime()),
      went_live_at: nullable(dateTime()),
      review: nullable(Review),
      last_check: nullable(Check),
      live: boolean('The release players get.'),
      previous_live: boolean('The release live just before the current one.'),
      can_make_live: boolean(),
      can_test: boolean('Draft, submitted, in review or approved: the development URL may use it.'),
    },
    { description: 'spec: Release.' },
  ),
);

const Description = object(
  {
    default_locale: oneOf(LISTING_LOCALES),
    'pt-BR': string(),
    en: string(),
    es: string(),
  },
  { description: 'The text per language; the default one is never empty.' },
);

/** The store page's own fields (spec: Store page draft). */
const listingFields = {
  name: string(),
  tagline: string(),
  description: Description,
  tags: Tags,
  age_rating: oneOf(AGE_RATINGS),
  orientation: Orientation,
  platforms: Platforms,
  privacy_url: uri(),
  terms_url: nullable(uri()),
  support_url: uri(),
  controller_name: string(),
  controller_country: string('ISO 3166-1 alpha-2, upper case.'),
  privacy_contact: string('An email address or an https URL.'),
};

const listingMedia = {
  icon_url: nullable(uri()),
  tile_url: nullable(uri()),
  cover_url: nullable(uri()),
  screenshots: list(uri(), 'In slot order.'),
};

export const ListingRevision = component(
  'ListingRevision',
  object(
    {
      number: integer(),
      status: oneOf(LISTING_STATUSES),
      ...listingFields,
      ...listingMedia,
      submitted_at: nullable(dateTime()),
      reviewed_at: nullable(dateTime()),
      review: nullable(Review),
      updated_at: dateTime(),
    },
    {
      optional: Object.keys(listingFields),
      description: 'A revision of the store page. A draft made by an image upload holds no fields until saved.',
    },
  ),
);

export const Listing = component(
  'Listing',
  object(
    {
      approved: nullable(ListingRevision),
      pending: nullable(ListingRevision),
      draft: nullable(ListingRevision),
      rejected: nullable(ListingRevision),
    },
    { description: 'The spec’s `listing` object: each view a revision or null.' },
  ),
);

export const ArcadeRecord = component(
  'ArcadeRecord',
  object(
    {
      slug: string(),
      status: oneOf(GAME_STATUSES),
      listing: Listing,
      releases: list(Release, 'Newest first.'),
      data_events: object({
        pending: integer('Neither delivered nor failed.'),
        held: integer('The pending ones waiting for a live release with an events URL.'),
        failed: integer(),
        oldest_pending_at: nullable(dateTime()),
      }),
      events: list(
        object({
          kind: string(),
          data: anyObject('What the move was about; never who acted.'),
          at: dateTime(),
        }),
        'The game’s timeline, newest first.',
      ),
      notice: nullable(Notice),
      created_at: dateTime(),
    },
    { description: 'spec: App Arcade record.' },
  ),
);

export const ArcadeSummary = component(
  'ArcadeSummary',
  object(
    {
      slug: string(),
      status: oneOf(GAME_STATUSES),
      hidden_reason: nullable(oneOf(HIDDEN_REASONS, 'Why the game is hidden, when it is.')),
      notice: nullable(Notice),
      live_release_number: nullable(integer()),
      listing: object({ approved: boolean(), pending: boolean(), draft: boolean(), rejected: boolean() }),
      releases: object({ draft: integer(), pending: integer(), ready: integer(), rejected_latest: boolean() }),
      data_events: object({ pending: integer(), held: integer(), failed: integer() }),
    },
    { description: 'The `arcade` member of an app.' },
  ),
);

export const Eligibility = component(
  'Eligibility',
  object({
    allowlisted: boolean(),
    two_factor: boolean(),
    mfa_session: boolean(),
    email_verified: boolean(),
    account_age_days: integer(),
    adult: boolean(),
    terms: object({ current: string(), accepted: nullable(string()) }),
    banned: boolean(),
    open_publishing: boolean(),
    blocked: boolean(),
    arcade_apps: object({ used: integer(), limit: nullable(integer('Null for an invited account.')) }),
    eligible: boolean(),
  }),
);

export const Override = component(
  'Override',
  object(
    {
      url: uri(),
      origin: uri(),
      host: string('The origin without its scheme, port kept.'),
      loopback: boolean('On the owner’s own machine.'),
      release_id: uuid(),
      release_number: nullable(integer()),
      set_at: dateTime(),
      expires_at: dateTime(),
      expired: boolean(),
      ready: boolean(),
      blocked_reason: nullable(oneOf(BLOCKED_REASONS)),
      changes_left: integer('What remains of the day’s 20 saves.'),
    },
    { description: 'spec: Development URL.' },
  ),
);

const directoryMembers = {
  app_id: uuid(),
  slug: string(),
  name: string(),
  tagline: string(),
  icon_url: nullable(uri()),
  tile_url: nullable(uri()),
  tags: Tags,
  age_rating: oneOf(AGE_RATINGS),
  controller_name: string(),
  platforms: Platforms,
};

export const DirectoryItem = component('DirectoryItem', object(directoryMembers));

export const StorePage = component(
  'StorePage',
  object({
    ...directoryMembers,
    description: Description,
    cover_url: nullable(uri()),
    screenshots: list(uri()),
    orientation: Orientation,
    privacy_url: uri(),
    terms_url: nullable(uri()),
    support_url: uri(),
    controller_country: string(),
    processed_abroad: boolean(
      'Whether `controller_country` is not BR: the consent then says that players’ data is processed abroad.',
    ),
    privacy_contact: string(),
    host: string('Where the live release runs, ASCII.'),
    scopes: ReleaseScopes,
    capabilities: Capabilities,
    reviewed_at: dateTime(),
  }),
);

/** Moderation's view of what waits for review (shared/arcade/review.ts). */
export const ArcadeQueue = object({
  releases: list(
    object({
      id: uuid(),
      app_id: uuid(),
      slug: string(),
      number: integer(),
      status: oneOf(['submitted', 'in_review']),
      entry_url: uri(),
      scopes: ReleaseScopes,
      capabilities: Capabilities,
      third_parties: ThirdParties,
      data_events_url: nullable(uri()),
      notes: string(),
      submitted_at: nullable(dateTime()),
      last_check: nullable(CheckFindings),
    }),
    'Oldest first.',
  ),
  listings: list(
    object({
      id: uuid(),
      app_id: uuid(),
      slug: string(),
      number: integer(),
      fields: nullable(object(listingFields, { description: 'The store page fields as submitted.' })),
      media: map(uuid(), 'Slot (`icon:0`, `screenshot:2`) to image id.'),
      submitted_at: nullable(dateTime()),
    }),
    'Oldest first.',
  ),
});
