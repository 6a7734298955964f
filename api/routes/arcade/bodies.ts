// The JSON bodies of Arcade's routes: their schemas, which the reference shows and validate() checks, and
// the spec's own refusals (spec arcade.md: Errors): 400 `fields_invalid` naming the field, or the answer the
// spec gives for that member (`nickname_invalid`, `slug_invalid`, `url_invalid`, 404 `app_not_found`,
// 403 `terms_required`), decided by the same rules the domain applies. Shared by the route files so none
// imports another.
import type { Middleware } from 'koa';
import { checkListing, AGE_RATINGS, LISTING_LOCALES, LISTING_TAGS } from '../../../shared/arcade/listing-rules.js';
import { checkNickname } from '../../../shared/arcade/nickname-rules.js';
import { CAPABILITIES, checkRelease, RELEASE_LIMITS, RELEASE_SCOPES } from '../../../shared/arcade/release-rules.js';
import { ORIENTATIONS, PLATFORMS } from '../../../shared/arcade/field-rules.js';
import { checkSlug } from '../../../shared/arcade/slug-rules.js';
import { checkOverrideUrl } from '../../../shared/arcade/url-rules.js';
import { forbidden, invalidRequest, notFound } from '../../../shared/platform/errors.js';
import { isUuid } from '../../../shared/platform/validation/uuid.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppState } from '../../context.js';
import { validate, type FieldsInvalid } from '../../middleware/validate.js';
import { overrideUrlSettings, urlRuleSettings } from './developer-game.js';

const string = (description: string): SchemaObject => ({ type: 'string', description });
const body = (properties: Record<string, SchemaObject>, required = Object.keys(properties)): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const subset = (values: readonly string[], more: SchemaObject = {}): SchemaObject => ({
  type: 'array',
  uniqueItems: true,
  items: { type: 'string', enum: [...values] },
  ...more,
});

const NICKNAME =
  '2 to 32 characters after NFC; no space at either end, no invisible or format character (else 400 `nickname_invalid`).';

/** spec arcade.md: Store page draft (input, all fields required); judged in the table's order. */
const LISTING: SchemaObject = body({
  name: string(
    '2 to 40 characters; no reserved words such as official or support (whole words), nor the service’s name Jogatina even inside a word, case, accents and look-alike letters folded (400 `fields_invalid` with `field` `name_reserved`).',
  ),
  tagline: string('Up to 80 characters; no reserved words (`tagline_reserved`).'),
  description: {
    ...body({
      default_locale: { type: 'string', enum: [...LISTING_LOCALES] },
      'pt-BR': string('Up to 2000 characters.'),
      en: string('Up to 2000 characters.'),
      es: string('Up to 2000 characters.'),
    }),
    description: 'The text per language; the default language’s may not be empty.',
  },
  tags: subset(LISTING_TAGS, { maxItems: 5 }),
  age_rating: { type: 'string', enum: [...AGE_RATINGS], description: 'Self-rating.' },
  orientation: { type: 'string', enum: [...ORIENTATIONS] },
  platforms: subset(PLATFORMS, { minItems: 1 }),
  privacy_url: string('An https URL, up to 512 characters.'),
  terms_url: { type: ['string', 'null'], description: 'An https URL, or null.' },
  support_url: string('An https URL, up to 512 characters.'),
  controller_name: string('Who answers for players’ data, 2 to 120 characters.'),
  controller_country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, upper case.' },
  privacy_contact: string('An email address or an https URL, up to 254 characters.'),
});

const GAME_URL =
  'https, up to 512 characters, port 443, no query or fragment (else 400 `url_invalid`), on a public host (else `url_denied` with `detail`).';

/** spec arcade.md: Release, input fields (all required); judged in the table's order. */
const RELEASE: SchemaObject = body({
  entry_url: string(GAME_URL),
  capabilities: subset(CAPABILITIES),
  scopes: subset(RELEASE_SCOPES, { description: '`identify`, or empty.' }),
  orientation: { type: 'string', enum: [...ORIENTATIONS] },
  platforms: subset(PLATFORMS, { minItems: 1 }),
  third_parties: {
    type: 'array',
    maxItems: RELEASE_LIMITS.thirdPartiesMax,
    description: 'Everything the game loads from elsewhere.',
    items: body({
      origin: string('An https origin, no path.'),
      purpose: string(`1 to ${RELEASE_LIMITS.purposeMax} characters.`),
    }),
  },
  data_events_url: {
    type: ['string', 'null'],
    description: `Where data events go, or null; required with \`identify\` (400 \`data_events_url_required\`). ${GAME_URL}`,
  },
  notes: string(`For the reviewer, up to ${RELEASE_LIMITS.notesMax} characters.`),
});

/** A value that is not a string uuid. */
const notUuid = (value: unknown) => typeof value !== 'string' || !isUuid(value);

interface ArcadeBody {
  schema: SchemaObject;
  refusals: FieldsInvalid;
}

export const ARCADE_BODIES = {
  /** POST /account/arcade/grants. */
  agree: {
    schema: body({
      app_id: { type: 'string', format: 'uuid', description: 'The game’s app id (an unknown one is 404).' },
      nickname: string(NICKNAME),
    }),
    refusals: {
      rules: {
        app_id: (value) => {
          if (notUuid(value)) throw notFound('No Arcade game has this id.', 'app_not_found');
        },
        nickname: (value) => checkNickname(value),
      },
    },
  },
  /** PATCH /account/arcade/grants/{appId}. */
  rename: {
    schema: body({ nickname: string(NICKNAME) }),
    refusals: { rules: { nickname: (value) => checkNickname(value) } },
  },
  /** POST /account/apps/{id}/arcade. */
  enable: {
    // The terms are judged before the slug, as enabling judges them.
    schema: body({
      terms_version: string('Must equal `eligibility.terms.current` (else 403 `terms_required`).'),
      slug: string('3 to 40 of a-z, 0-9 and hyphens, no hyphen at either end (else 400 `slug_invalid`).'),
    }),
    refusals: {
      rules: {
        terms_version: (value) => {
          if (typeof value !== 'string') {
            throw forbidden('terms_required', { field: 'terms_version' }, 'Accept the current developer terms.');
          }
        },
        slug: (value) => checkSlug(typeof value === 'string' ? value : ''),
      },
    },
  },
  /** POST /account/arcade/terms. */
  terms: {
    schema: body({ terms_version: string('Must equal `eligibility.terms.current` (else 403 `terms_required`).') }),
    refusals: {
      rules: {
        terms_version: (value) => {
          if (typeof value !== 'string') {
            throw invalidRequest('terms_version is required.', { reason: 'fields_invalid', field: 'terms_version' });
          }
        },
      },
    },
  },
  /** PUT /account/apps/{id}/arcade/override. */
  override: {
    schema: body({
      url: string(
        'Up to 512 characters, no query or fragment: http or https on the owner’s machine (localhost, a name under .localhost, 127.0.0.1, any port), or https on a public host (else 400 `url_invalid` or `url_denied`).',
      ),
      release_id: { type: 'string', format: 'uuid', description: 'A draft, submitted, in-review or approved release.' },
    }),
    refusals: {
      rules: {
        url: (value, ctx) => checkOverrideUrl(value, overrideUrlSettings(ctx)),
        release_id: (value) => {
          if (notUuid(value)) {
            throw invalidRequest('release_id must be the id of one of this game’s releases.', {
              reason: 'fields_invalid',
              field: 'release_id',
            });
          }
        },
      },
    },
  },
  /** PUT /account/apps/{id}/arcade/listing: the store page's own rules decide every refusal. */
  listing: { schema: LISTING, refusals: { judge: (value) => checkListing(value) } },
  /** POST and PUT of releases: the release's own rules decide every refusal. */
  release: { schema: RELEASE, refusals: { judge: (value) => checkRelease(value, urlRuleSettings()) } },
} satisfies Record<string, ArcadeBody>;

/** The route's input: its path parameters and its Arcade body, checked and refused as above. */
export function arcadeInput(kind: keyof typeof ARCADE_BODIES, params?: SchemaObject): Middleware<AppState> {
  const { schema, refusals } = ARCADE_BODIES[kind];
  return validate({ ...(params ? { params } : {}), body: schema }, { fieldsInvalid: refusals });
}
