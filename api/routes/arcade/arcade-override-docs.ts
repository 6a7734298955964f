// The reference's words for the development URL and its test launch (spec arcade.md: Development URL,
// GET/PUT/DELETE .../override; DECISIONS: Arcade, launch; docs/api-notes.md: Development URL, Launching).
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { GAME, launch, override, PUBLISHING } from './arcade-examples.js';
import { ARCADE_ANSWERS } from '../../openapi/shapes/arcade-answers.js';

/** ownedGame() in override.ts: another account's app is 403 here, not 404. */
const OWNED: ErrorRef[] = ['not_found:app_not_found', 'forbidden:not_owner'];

export const ARCADE_OVERRIDE_DOCS = {
  read: doc({
    summary: 'The saved development URL',
    description:
      '`override` is null when none is saved. `blocked_reason` is worked out on every read, first of: `override_expired`, `not_playable`, `release_not_found`, `listing_not_found`, `origin_in_use`, `url_denied`; `ready` when there is none. `changes_left` is what remains of the day’s 20 kept saves. Another account’s app is 403 `not_owner`; an app without Arcade 404 `app_not_found`.',
    errors: OWNED,
    response: ARCADE_ANSWERS.override,
    example: { data: { override } },
  }),
  save: doc({
    summary: 'Save the development URL for 24 hours',
    description: [
      'Body `url` and `release_id` (any other field is 400 `fields_invalid`), judged before the game is looked up. `url`: up to 512 characters, no query or fragment; http or https on the owner’s machine (`localhost`, a name under `.localhost`, or exactly `127.0.0.1`, any port), or https on a public host (any port) that resolves to public addresses only, none of them in a network Arcade blocks; never another IP address nor the host of this service (400 `url_invalid` or `url_denied` with `field` `url` and `detail`, e.g. `ip_literal`, `not_public`, `network`, `service_host`; `idn` for any internationalized host name while the operator does not accept them). `release_id`: a release of this game that is a draft, submitted, in review or approved (404 `release_not_found`). Nothing is fetched from the URL.',
      '',
      'A removed or suspended game is 403 `not_playable`. 20 kept saves a day per app (refusals spend none), then 429 with `retry_after`; public-host lookups 60 an hour per account, counted before the lookup. Another game’s origin is 409 `origin_in_use`. Saving again renews the 24 hours; a game open on a previous origin closes within 30 seconds.',
    ].join('\n'),
    errors: [
      ...OWNED,
      'forbidden:publisher_blocked',
      'forbidden:not_playable',
      'invalid_request:fields_invalid',
      'invalid_request:url_invalid',
      'invalid_request:url_denied',
      'not_found:release_not_found',
      'rate_limited:rate_limited',
      'conflict:origin_in_use',
    ],
    response: ARCADE_ANSWERS.override,
    example: { data: { override } },
  }),
  clear: doc({
    summary: 'Clear the development URL',
    description:
      'Answers the same when nothing was saved, and costs no save. A game open on it closes within 30 seconds. A suspended account is 403 `banned`.',
    errors: [...OWNED, 'forbidden:banned'],
    response: ARCADE_ANSWERS.overrideCleared,
    example: { data: { override: null } },
  }),
  launch: doc({
    summary: 'Open the development URL (test launch)',
    description:
      'The owner’s play of the saved development URL: a launch of kind `override` in mode `test`, with its base release. 404 `override_not_found` when none is saved; then it refuses exactly what `GET .../override` reports in `blocked_reason`, with that reason’s error: 409 `override_expired` after its 24 hours, 403 `not_playable` when the game is removed, suspended or under a notice, 404 `release_not_found` when the base release can no longer be tested, 404 `listing_not_found` without a store page, 409 `origin_in_use` when another game holds the origin, 400 `url_denied` (field `url`) when the URL is no longer accepted. An account blocked from publishing is 403 `publisher_blocked`. A base release asking `identify` needs the owner’s own active grant (403 `grant_required`). The play is recorded; `identity` is null when the release does not ask for `identify`.',
    errors: [
      ...GAME,
      ...PUBLISHING,
      'not_found:override_not_found',
      'conflict:override_expired',
      'forbidden:not_playable',
      'not_found:release_not_found',
      'not_found:listing_not_found',
      'conflict:origin_in_use',
      'invalid_request:url_denied',
      'forbidden:grant_required',
    ],
    response: ARCADE_ANSWERS.launch,
    example: { data: { ...launch, kind: 'override', mode: 'test', url: override.url } },
  }),
};
