// The parts of the reference that belong to no single route: the opening text, the groups routes are
// listed in, the error and envelope shapes, and the two ways to authenticate.
import { ERROR_CODES } from '../../shared/platform/errors.js';
import { ALLOWANCE_PER_HOUR, SCOPES } from '../../shared/keys/scopes.js';

const DESCRIPTION = `The JSON API of the Jogatina game-community site and of Arcade, its store for browser games.

**Authentication.** Integrations send \`Authorization: Bearer <key>\` (keys look like \`jgt_live_\` and 32 hex
characters; make one under an app with \`POST /api/v1/account/apps/{id}/keys\` from the website). A key
acts as its owner, within its scopes: a scope never widens what the owner may do. The website itself uses
the session cookie of the sign-in service under \`/api/auth\`; a cookie counts only on requests from the
site's own origin. When an \`Authorization\` header is sent it decides alone, and a bad key is 401
\`invalid_key\` even on public routes.

**Allowances.** Each key has an hourly allowance per resource: read ${ALLOWANCE_PER_HOUR.read}, write
${ALLOWANCE_PER_HOUR.write}, catalog ${ALLOWANCE_PER_HOUR.catalog}. Every answer to a key carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (epoch seconds) and \`X-RateLimit-Resource\`; a 429 carries
\`Retry-After\` and \`error.retry_after\`. Sessions spend no allowance.

**Errors.** Every error, 500 included, is \`{ "error": { "code", "message", ... } }\`. \`code\` is one of
${ERROR_CODES.map((code) => `\`${code}\``).join(', ')}; \`reason\` is one word to act on, and a client that
meets a reason it does not know acts on \`code\`. Invalid input is 400 \`invalid_request\` with \`field\`
naming the input and \`reason\` one of missing, wrong_type, out_of_range, too_short, too_long,
not_allowed, bad_format, unknown_field, duplicate, invalid: nothing is silently clamped. Each operation
lists every code and reason it can answer, and \`x-errors\` holds the same list for machines. Another
account's resource answers 404, never 403. Before any operation, the HTTP parser's refusals answer the
same shape with code \`invalid_request\`: 431 \`headers_too_large\` (request line and headers past 16 KB),
413 \`too_large\`, 408 \`request_timeout\` and 400 \`malformed_request\`.

**Collections.** \`{ data, page }\`; \`page\` starts at 1 and goes to 1000 (the catalog: 24 a page, to
100). Cursor collections answer \`next_cursor\` (or \`next_before\`), bound to their sort.

**Versioning.** Every path carries \`/api/v1\`. Within v1 we only add: new routes, new optional input,
new members in answers and new reasons. Anything else comes as \`/api/v2\`, with v1 kept at least six
months after v2 is announced.`;

/** `publicUrl`: the site, whose `/docs` page renders this reference. */
export function overview(version: string, publicUrl: string) {
  return {
    title: 'Jogatina API',
    version,
    description: DESCRIPTION,
    contact: { name: 'Jogatina', url: new URL('/docs', publicUrl).href },
  };
}

export const TAGS = [
  { name: 'Sign-in service', description: 'The website’s sign-in, sessions and second factor (never keys).' },
  { name: 'Account', description: 'The signed-in account: name, state, sessions, apps, keys, data.' },
  { name: 'Profile and layout', description: 'The owner’s profile, drafts, pictures and page layout.' },
  { name: 'People', description: 'Public people pages, activity, discovery and search.' },
  { name: 'Social', description: 'The owner’s follows, requests and blocks.' },
  { name: 'Reports', description: 'Reporting people, content and Arcade games.' },
  { name: 'Catalog', description: 'The game catalog and its search.' },
  { name: 'Arcade', description: 'The public directory, store pages and the identity key set.' },
  { name: 'Arcade for players', description: 'Grants, launches and play streams.' },
  { name: 'Arcade for developers', description: 'Store pages, releases, checks and the development URL.' },
  { name: 'Moderation', description: 'Staff only: reports, Arcade review and account actions.' },
  { name: 'Service', description: 'Health.' },
];

/** The group of a path: the first rule that matches wins. */
const TAG_RULES: Array<[RegExp, string]> = [
  [/^\/api\/(auth|account\/password)/, 'Sign-in service'],
  [/^\/api\/v1\/moderation\//, 'Moderation'],
  [/^\/api\/v1\/account\/(apps\/:id\/arcade|arcade\/terms)/, 'Arcade for developers'],
  [/^\/api\/v1\/account\/arcade|^\/api\/v1\/arcade\/(apps\/:slug\/launch|instances)/, 'Arcade for players'],
  [/^\/api\/v1\/arcade/, 'Arcade'],
  [/^\/api\/v1\/(account|me)/, 'Account'],
  [/^\/api\/v1\/(profile|drafts)(\/|$)/, 'Profile and layout'],
  [/^\/api\/v1\/social\//, 'Social'],
  [/^\/api\/v1\/reports/, 'Reports'],
  [/^\/api\/v1\/(games|companies|search\/(counts|companies))/, 'Catalog'],
  [/^\/api\/v1\//, 'People'],
];

export function tagOf(path: string): string {
  return TAG_RULES.find(([pattern]) => pattern.test(path))?.[1] ?? 'Service';
}

export const components = {
  securitySchemes: {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      description: `An API key. Scopes: ${SCOPES.join(', ')}.`,
    },
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: 'sid',
      description: 'The website’s session cookie (`__Host-sid` on https), from the sign-in service.',
    },
  },
  schemas: {
    Error: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: ERROR_CODES },
            message: { type: 'string', description: 'For people; may change. Act on code and reason.' },
            reason: { type: 'string' },
            field: { type: 'string', description: 'The input at fault, as `body.name`, `page` or `scopes`.' },
            scope: { type: 'string', description: 'The scope a key lacks (insufficient_scope).' },
            retry_after: { type: 'integer', description: 'Seconds to wait (rate_limited).' },
            detail: {},
            version: { type: 'integer' },
            issues: {
              type: 'array',
              maxItems: 20,
              description: 'An invalid layout’s issues, at most 20.',
              items: {
                type: 'object',
                required: ['code', 'message'],
                properties: {
                  code: {
                    type: 'string',
                    enum: [
                      'shape',
                      'duplicate_id',
                      'spans',
                      'too_many_blocks',
                      'too_many_of_type',
                      'too_many_elements',
                      'out_of_bounds',
                      'required_missing',
                      'required_hidden',
                      'too_large',
                    ],
                  },
                  message: { type: 'string' },
                  path: {
                    type: 'array',
                    items: { type: ['string', 'integer'] },
                    description: 'Keys and indexes from the document’s root to the part at fault.',
                  },
                  type: { type: 'string', description: 'The block or element type it is about.' },
                },
              },
            },
            limit: { type: 'integer' },
            count: { type: 'integer' },
            bytes_limit: { type: 'integer' },
            bytes: { type: 'integer' },
            second_factor: { type: 'boolean' },
            next_change_at: { type: 'string', format: 'date-time' },
            balance: { type: 'integer', description: 'Your minerals (`insufficient_minerals`).' },
            cost: { type: 'integer', description: 'What the award costs (`insufficient_minerals`).' },
            id: { type: 'string', description: 'The thing a conflict is about (`session_running`: the live session).' },
          },
        },
      },
    },
  },
};
