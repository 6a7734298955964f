// The reference's words for a game's releases (spec arcade.md: Release, Check, States and transitions,
// Developer routes; docs/api-notes.md: Releases, Checks, Where games may be hosted, Going live).
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { appRecord, CHECK, check, GAME, MOVE, PUBLISHING, release, TERMS } from './arcade-examples.js';
import { ARCADE_ANSWERS } from '../../openapi/shapes/arcade-answers.js';

/** The release body's rules (release-rules.ts). */
const BODY: ErrorRef[] = [
  'invalid_request:fields_invalid',
  'invalid_request:url_invalid',
  'invalid_request:url_denied',
  'invalid_request:data_events_url_required',
];
const BODY_RULES =
  'Every field is required. 400 `fields_invalid` names the first refused `field` (`third_parties.0.purpose` for nested ones); `url_invalid` or `url_denied` (with `detail`, e.g. `ip_literal`, `idn_confusable`; `idn` for any internationalized host name while the operator does not accept them) name `entry_url`, `data_events_url` or `third_parties.N.origin`; scopes holding `identify` need a `data_events_url` (400 `data_events_url_required`). A body of the wrong shape (a field missing, unknown or of the wrong type, a value outside the table’s lists) is answered before the game is looked up.';
/** The host rules submit and live apply before spending a check (host-rules.ts). */
const HOST: ErrorRef[] = ['invalid_request:url_denied', 'conflict:domain_too_new'];
const HOST_RULES =
  'Before a check is spent the entry host and the data events host are resolved: any of their addresses in a blocked network, a blocked registrar, or a host that does not resolve to public addresses, is 400 `url_denied` (`detail` `network`, `field` `entry_url` or `data_events_url`); a domain registered less than 30 days ago is 409 `domain_too_new`.';
const RELEASE: ErrorRef[] = ['not_found:release_not_found'];
const draft = {
  ...release,
  id: 'e41a7b3c-5d92-4c6f-8e10-3f2b9a6d7c58',
  number: 3,
  status: 'draft',
  submitted_at: null,
  reviewed_at: null,
  approved_at: null,
  review: null,
  last_check: null,
  can_make_live: false,
};

export const ARCADE_RELEASE_DOCS = {
  list: doc({
    summary: 'The game’s releases',
    description:
      'Newest first, each with its latest check; a removed game’s too (every change to them is then 409 `app_removed`). `live` and `previous_live` mark the release players get and the one live just before; `can_make_live` (approved, not live, approved within 90 days, newer than the live one or the one live just before it) and `can_test` (draft, submitted, in review or approved).',
    errors: GAME,
    response: ARCADE_ANSWERS.releases,
    example: {
      data: [draft, { ...release, live: true, can_make_live: false, went_live_at: '2026-11-19T10:00:00.000Z' }],
    },
  }),
  create: doc({
    summary: 'Create a release',
    description: `A new draft numbered after the game’s last release. ${BODY_RULES}`,
    errors: [...GAME, ...MOVE, ...PUBLISHING, ...BODY],
    status: 201,
    response: ARCADE_ANSWERS.release,
    example: { data: { release: draft } },
  }),
  replace: doc({
    summary: 'Replace a draft release',
    description: `Only a draft changes: any other status is 409 \`release_locked\` (submit a new release instead). ${BODY_RULES}`,
    errors: [...GAME, ...MOVE, ...PUBLISHING, ...RELEASE, ...BODY, 'conflict:release_locked'],
    response: ARCADE_ANSWERS.release,
    example: { data: { release: draft } },
  }),
  check: doc({
    summary: 'Check a release’s URL now',
    description:
      'The worker fetches the proof file (`/.well-known/jogatina-arcade.txt` on the entry origin, listing the app id) and the entry URL through the outbound guard; the route waits up to 30 s (else 500 `check_unavailable`). First, as submit and live do, any address of the entry or data events host in a blocked network is 400 `url_denied` (`detail` `network`, `field` `entry_url` or `data_events_url`) and spends no check; a host that does not resolve to public addresses is the check’s to report, in `error`. `passed` when the entry answers 200 HTML and proof, redirect and framing are ok. 20 checks a day per app, including those submit and live run, then 429 with `retry_after`. A check of the live release also counts for the game as the service’s own daily checks do: two failures in a row hide it (`notice` hidden, reason `invariant`), two passes in a row bring it back, another hosting provider hides it (reason `provider_change`).',
    errors: [...GAME, ...MOVE, ...PUBLISHING, ...RELEASE, 'invalid_request:url_denied', ...CHECK],
    response: ARCADE_ANSWERS.check,
    example: { data: { check } },
  }),
  submit: doc({
    summary: 'Submit a draft release for review',
    description: [
      'Refusals in this order: 404 `release_not_found`; 409 `release_locked` (not a draft); 429 past 5 submissions a day per app; the host rules; then a fresh check (counted in the day’s 20), which must pass (409 `check_failed` with the check in `detail`); the entry origin becomes the app’s for good, unless another game holds it (409 `origin_in_use`). The developer is emailed.',
      '',
      HOST_RULES,
    ].join('\n'),
    errors: [
      ...GAME,
      ...MOVE,
      ...PUBLISHING,
      ...TERMS,
      ...RELEASE,
      'conflict:release_locked',
      'rate_limited:rate_limited',
      ...HOST,
      ...CHECK,
      'conflict:check_failed',
      'conflict:origin_in_use',
    ],
    response: ARCADE_ANSWERS.releaseAndCheck,
    example: {
      data: {
        release: {
          ...draft,
          status: 'submitted',
          submitted_at: '2026-11-21T18:00:00.000Z',
          last_check: check,
          can_test: true,
        },
        check,
      },
    },
  }),
  withdraw: doc({
    summary: 'Withdraw a release from review',
    description:
      'Only a submitted or in-review release can be withdrawn; anything else is 409 `not_in_review` (a reason of our own).',
    errors: [...GAME, ...MOVE, ...PUBLISHING, ...RELEASE, 'conflict:not_in_review'],
    response: ARCADE_ANSWERS.release,
    example: {
      data: { release: { ...draft, status: 'withdrawn', submitted_at: '2026-11-21T18:00:00.000Z', can_test: false } },
    },
  }),
  live: doc({
    summary: 'Make an approved release live',
    description: [
      'Refusals that need no fetch come first: 404 `release_not_found`; 409 `release_not_approved` (not approved, or already live), `approval_too_old` (approved more than 90 days ago: submit it again), `rollback_too_far` (older than the live release and not the one live just before it). Then the host rules, then a fresh check (counted in the day’s 20) that must pass (409 `check_failed`) on the hosting provider the approval saw (409 `provider_changed` with `{ approved, now }` in `detail`). Its hosting provider is the one later checks must find; a game its checks hid for `provider_change` is listed again. Held data events are sent once the live release names an events URL. The developer is emailed.',
      '',
      HOST_RULES,
    ].join('\n'),
    errors: [
      ...GAME,
      ...MOVE,
      ...PUBLISHING,
      ...TERMS,
      ...RELEASE,
      'conflict:release_not_approved',
      'conflict:approval_too_old',
      'conflict:rollback_too_far',
      ...HOST,
      ...CHECK,
      'conflict:check_failed',
      'conflict:provider_changed',
    ],
    response: ARCADE_ANSWERS.appAndCheck,
    example: {
      data: {
        app: {
          ...appRecord,
          releases: [{ ...release, live: true, can_make_live: false, went_live_at: '2026-11-21T18:30:00.000Z' }],
        },
        check,
      },
    },
  }),
};
