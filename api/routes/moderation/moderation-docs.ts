// The reference's words for moderation (DECISIONS: Staff and moderation; docs/api-notes.md: Moderation,
// Moderation of Arcade). Who may call (staff with a session that passed two-factor) is carried by
// staffWithTwoFactor() itself; each route lists only what its own work can refuse.
import { LISTING_FIELDS } from '../../../shared/arcade/listing-rules.js';
import { check as arcadeCheck, listing } from '../arcade/arcade-examples.js';
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { MODERATION_ANSWERS } from '../../openapi/shapes/moderation.js';

const page = { number: 1, size: 50, total_items: 1, total_pages: 1, has_more: false };
const moderator = { id: '2c8d4e7a-1b3f-4a95-8c60-d7e2f9b4a013', username: 'mod_carla' };
const ACCOUNT_ID = '45425a16-ce65-4462-861a-877637bff30e';
const APP_ID = '5f1c2a9e-8d3b-4c71-9a0e-2b6f4d8c1e37';
/** subjectAccount() in account-sanctions.ts: an unknown or malformed id, or the moderator's own account. */
const SUBJECT: ErrorRef[] = ['not_found', 'invalid_request:not_allowed'];
const DECISION_WORDS =
  'Every decision is emailed to the developer and added to the game’s timeline without the moderator’s name; the moderator is recorded in the actions.';

const report = {
  id: '3b1f4778-43d2-467e-a785-34096f94c30d',
  on: 'REVIEW',
  reason: 'HARASSMENT',
  priority: 2,
  status: 'open',
  details: 'Insults aimed at another player in the review text.',
  instance_id: null,
  reporter: { id: 'a7e3c1d9-5b28-4f60-9e14-8c2d7b3f6a05', username: 'ana_souza' },
  target: { account_id: ACCOUNT_ID, username: 'rude_gamer', id: 'f0d94b2e-7a15-4c38-b6e1-2d8a5c9f3e70' },
  snapshot: {
    kind: 'review',
    id: 'f0d94b2e-7a15-4c38-b6e1-2d8a5c9f3e70',
    game_id: 48213,
    body: 'Anyone who likes this is an idiot.',
    rating: 1,
    contains_spoilers: false,
    visibility: 'PUBLIC',
    created_at: '2026-11-20T22:14:03.000Z',
    updated_at: '2026-11-20T22:14:03.000Z',
  },
  outcome: null,
  note: null,
  resolved_by: null,
  resolved_at: null,
  created_at: '2026-11-21T13:20:45.000Z',
};

// A report's snapshot keeps the check's findings, not its id or time.
const { id: _id, checked_at: _at, ...check } = arcadeCheck;

export const MODERATION_DOCS = {
  reports: doc({
    summary: 'The report queue',
    description:
      '50 a page: open reports first, then by priority (0 = CHILD_SAFETY, SELF_HARM, VIOLENCE; 1 = SCAM; 2 = the rest), oldest first; `status` keeps one of open or resolved. `snapshot` is the target as it was when reported.',
    headers: { 'Cache-Control': '`no-store`' },
    response: MODERATION_ANSWERS.reports,
    example: { data: [report], page },
  }),
  resolve: doc({
    summary: 'Resolve a report',
    description:
      'Records the decision; with outcome `content_removed` the reported review, list, screenshot, diary session or journey, or comment is also removed in the same step, as `POST /moderation/content/{kind}/{id}` removes it (a target already deleted changes nothing; a profile or Arcade game is not content and stays). Sanctions are their own actions. An unknown or malformed id is 404; resolving again is 409 `already_resolved`. Once resolved, the reporter may report the same target again.',
    errors: ['not_found', 'conflict:already_resolved'],
    response: MODERATION_ANSWERS.resolved,
    example: {
      data: {
        id: report.id,
        status: 'resolved',
        outcome: 'warned',
        note: 'Warned the author.',
        resolved_at: '2026-11-21T15:02:11.000Z',
      },
    },
  }),
  infraction: doc({
    summary: 'Add an infraction to an account',
    description:
      'A Suspensão needs a future `expires_at` (400 `missing`), a Banimento permanente refuses one (400 `not_allowed`), and any `expires_at` given must be in the future (400 `out_of_range`). It shows at once in the account’s `GET /account/state`. An unknown or malformed id is 404; staff cannot act on their own account (400 `not_allowed`, `field` `id`).',
    errors: [...SUBJECT, 'invalid_request:missing', 'invalid_request:not_allowed', 'invalid_request:out_of_range'],
    status: 201,
    response: MODERATION_ANSWERS.infraction,
    example: {
      data: {
        id: '8e5a2c7d-4f19-4b63-a0d8-1c9e6b3f7a24',
        account_id: ACCOUNT_ID,
        reason: 'Suspensão',
        details: 'Repeated harassment in reviews.',
        expires_at: '2026-12-05T00:00:00.000Z',
        created_at: '2026-11-21T15:05:00.000Z',
      },
    },
  }),
  publisher: doc({
    summary: 'Block or unblock an account from publishing on Arcade',
    description:
      'A blocked account gets 403 `publisher_blocked` on Arcade’s publishing routes. Repeating changes nothing but is recorded. An unknown or malformed id is 404; staff cannot act on their own account (400 `not_allowed`).',
    errors: SUBJECT,
    response: MODERATION_ANSWERS.publisher,
    example: { data: { account_id: ACCOUNT_ID, blocked: true, blocked_at: '2026-11-21T15:06:30.000Z' } },
  }),
  actions: doc({
    summary: 'The record of moderator actions',
    description:
      '50 a page, newest first. `moderator` is null for changes made with the operator command (`npm run op`).',
    headers: { 'Cache-Control': '`no-store`' },
    response: MODERATION_ANSWERS.actions,
    example: {
      data: [
        {
          id: 'b61f0e3a-9c24-4d87-a5e2-7f3b8d1c6e49',
          moderator,
          action: 'resolve_report',
          subject: { kind: 'report', id: report.id },
          details: { outcome: 'warned', note: 'Warned the author.' },
          created_at: '2026-11-21T15:02:11.000Z',
        },
      ],
      page,
    },
  }),
  arcadeQueue: doc({
    summary: 'Arcade’s review queue',
    description:
      'Submitted and in-review releases (with their latest check) and submitted store pages, each oldest first. A removed game’s are left out: it can never be listed again.',
    headers: { 'Cache-Control': '`no-store`' },
    response: MODERATION_ANSWERS.arcadeQueue,
    example: {
      data: {
        releases: [
          {
            id: '0b7e4c2a-91d5-4f3e-8a6b-c2d9e1f07a54',
            app_id: APP_ID,
            slug: 'rocket-garden',
            number: 2,
            status: 'submitted',
            entry_url: 'https://rocketgarden.example.net/play/',
            scopes: ['identify'],
            capabilities: ['pointer-lock'],
            third_parties: [{ origin: 'https://cdn.example.org', purpose: 'Fonts and sound effects' }],
            data_events_url: 'https://api.rocketgarden.example.net/jogatina/events',
            notes: 'Sign in is not needed; press Space to launch.',
            submitted_at: '2026-11-18T10:40:02.000Z',
            last_check: check,
          },
        ],
        listings: [
          {
            id: '9d2f6a41-3c8e-4b57-a1d0-7e5b3c9f2a18',
            app_id: APP_ID,
            slug: 'rocket-garden',
            number: 3,
            fields: Object.fromEntries(LISTING_FIELDS.map((field) => [field, listing[field]])),
            media: { 'icon:0': 'd3a91f6c-2b7e-4c58-9e01-6f4b2a8d5c73' },
            submitted_at: '2026-11-21T17:30:00.000Z',
          },
        ],
      },
    },
  }),
  release: doc({
    summary: 'Decide on a release',
    description: `\`in_review\` takes a submitted release; \`approve\` and \`reject\` a submitted or in-review one; \`revoke\` an approved one (revoking the live release stops it at once). Any other move is 409 \`invalid_transition\`. An approval keeps the hash and provider of the release’s latest check, which making it live compares. \`review\` stays as it was for \`in_review\`. An unknown id is 404 \`release_not_found\`. ${DECISION_WORDS}`,
    errors: ['not_found:release_not_found', 'conflict:invalid_transition'],
    response: MODERATION_ANSWERS.decided,
    example: {
      data: {
        id: '0b7e4c2a-91d5-4f3e-8a6b-c2d9e1f07a54',
        number: 2,
        status: 'approved',
        review: { decision: 'approve', reasons: [], note: null },
      },
    },
  }),
  listing: doc({
    summary: 'Decide on a store page',
    description: `Only a submitted store page can be decided (else 409 \`invalid_transition\`). Approving replaces what players see and lists a game in \`draft\`; rejecting shows in the developer’s \`listing.rejected\`. An unknown id is 404 \`listing_not_found\`. ${DECISION_WORDS}`,
    errors: ['not_found:listing_not_found', 'conflict:invalid_transition'],
    response: MODERATION_ANSWERS.decided,
    example: {
      data: {
        id: '9d2f6a41-3c8e-4b57-a1d0-7e5b3c9f2a18',
        number: 3,
        status: 'rejected',
        review: { decision: 'reject', reasons: ['misleading_screenshots'], note: 'Screenshots show another game.' },
      },
    },
  }),
  app: doc({
    summary: 'Suspend, flag, hide or restore a game',
    description: `\`suspend\` sets status \`suspended\`; \`flag\` keeps the status but nobody can open the game; \`hide\` sets \`hidden\` and takes a \`reason\` of invariant, provider_change or reports (else 400 \`fields_invalid\`, \`field\` \`reason\`); the others take moderation’s words for the developer. \`restore\` clears the notice and lists the game again (\`draft\` if no store page was ever approved). A removed game is 409 \`invalid_transition\`; an unknown id 404 \`app_not_found\`. ${DECISION_WORDS}`,
    errors: ['not_found:app_not_found', 'invalid_request:fields_invalid', 'conflict:invalid_transition'],
    response: MODERATION_ANSWERS.appAction,
    example: {
      data: {
        app_id: APP_ID,
        slug: 'rocket-garden',
        status: 'listed',
        notice: { kind: 'flagged', reason: 'Checking reports of a crash loop.', at: '2026-11-21T15:10:00.000Z' },
      },
    },
  }),
};
