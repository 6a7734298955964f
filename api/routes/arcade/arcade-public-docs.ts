// The reference's words for Arcade's public routes (spec arcade.md: Public, Key set; DECISIONS: Arcade;
// docs/api-notes.md: Public directory, Identity key set).
import { doc } from '../../openapi/route-facts.js';
import { APP_ID, listing } from './arcade-examples.js';
import { ARCADE_ANSWERS } from '../../openapi/shapes/arcade-answers.js';

const item = {
  app_id: APP_ID,
  slug: 'rocket-garden',
  name: listing.name,
  tagline: listing.tagline,
  icon_url: listing.icon_url,
  tile_url: listing.tile_url,
  tags: listing.tags,
  age_rating: listing.age_rating,
  controller_name: listing.controller_name,
  platforms: listing.platforms,
};

const LISTED =
  'Only games that are listed, carry no notice, and have an approved store page and a live release; everything shown comes from the approved revision and the live release, except `age_rating`: while a revision waits for review, the stricter of its rating and the approved one (a higher rating applies on submission, a lower one waits for the approval).';

/** The key set's words, at both of its paths. */
function keySetDoc(summary: string, signs: string) {
  return doc({
    summary,
    description: `A plain JSON Web Key Set, not under \`data\`: the next, current and retiring ES256 keys (curve P-256), public members only, that sign ${signs}. With no key yet it is 503 \`identity_unavailable\`, never an empty set. Keep it at most 10 minutes, and fetch it only from this service’s own domain.`,
    errors: ['unavailable:identity_unavailable'],
    produces: 'application/jwk-set+json',
    headers: { 'Cache-Control': '`public, max-age=300, stale-while-revalidate=60`' },
    response: ARCADE_ANSWERS.keySet,
    example: {
      keys: [
        {
          kty: 'EC',
          crv: 'P-256',
          x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
          y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
          kid: 'hT3kP9wQx2ZbLm0v',
          alg: 'ES256',
          use: 'sig',
        },
      ],
    },
  });
}

export const ARCADE_PUBLIC_DOCS = {
  directory: doc({
    summary: 'The Arcade directory',
    description: `${LISTED} Newest approval first. \`q\` matches the approved name, ignoring accents and case. \`next\` is the cursor of the following page (null on the last); it is signed and bound to \`q\`: with another \`q\` it starts over, and an edited one is 400 \`bad_format\` with \`field\` \`cursor\`.`,
    errors: ['invalid_request:bad_format'],
    headers: { 'Cache-Control': '`public, max-age=60`' },
    response: ARCADE_ANSWERS.directory,
    example: {
      data: [item],
      next: 'WzEsImFyY2FkZS1kaXJlY3Rvcnk6IixbIjIwMjYtMTEtMTlUMDk6MTI6MzAuMDAwWiJdXQ.q1Jk8Yc0vWm3Zb5x',
    },
  }),
  storePage: doc({
    summary: 'A game’s store page',
    description: `${LISTED} Anything else under the slug is 404 \`app_not_found\`. \`processed_abroad\` is true when \`controller_country\` is not BR (the consent then says players’ data is processed abroad); \`host\` is where the live release runs (ASCII); \`reviewed_at\` the approval of the revision shown; \`scopes\` and \`capabilities\` those of the live release.`,
    errors: ['not_found:app_not_found'],
    headers: { 'Cache-Control': '`public, max-age=60`' },
    response: ARCADE_ANSWERS.storePage,
    example: {
      data: {
        ...item,
        description: listing.description,
        cover_url: listing.cover_url,
        screenshots: listing.screenshots,
        orientation: listing.orientation,
        privacy_url: listing.privacy_url,
        terms_url: listing.terms_url,
        support_url: listing.support_url,
        controller_country: listing.controller_country,
        processed_abroad: false,
        privacy_contact: listing.privacy_contact,
        host: 'rocketgarden.example.net',
        scopes: ['identify'],
        capabilities: ['pointer-lock'],
        reviewed_at: '2026-11-17T18:30:00.000Z',
      },
    },
  }),
  jwks: keySetDoc('The identity key set', 'identity tokens and data events'),
  serviceJwks: keySetDoc(
    'The service’s key set',
    'identity tokens, data events and events for integrations (the same set as `GET /arcade/jwks`)',
  ),
};
