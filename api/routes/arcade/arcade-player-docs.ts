// The reference's words for players (spec arcade.md: Grant, Player grants, Events; DECISIONS: Arcade,
// launch; docs/api-notes.md: Grants, Launching, Play stream).
import { doc } from '../../openapi/route-facts.js';
import { grant, launch } from './arcade-examples.js';
import { ARCADE_ANSWERS } from '../../openapi/shapes/arcade-answers.js';

const NICKNAME_RULES =
  'A nickname is 2 to 32 characters after NFC, with no space at either end and no invisible or format character, judged by Unicode property: default-ignorable code points (soft hyphen, fillers, variation selectors...), format characters (direction marks, zero-width characters), controls, line and paragraph separators (else 400 `nickname_invalid`).';

const stream = [
  'event: ready',
  `data: {"instance_id":"${launch.instance_id}","granted":true,"nickname":"Pilota Zoë","scopes":["identify"]}`,
  '',
  ': keep-alive',
  '',
  'event: GRANT_UPDATE',
  `data: {"instance_id":"${launch.instance_id}","granted":false,"nickname":null,"scopes":[]}`,
  '',
  '',
].join('\n');

export const ARCADE_PLAYER_DOCS = {
  grants: doc({
    summary: 'Your grants to games',
    description:
      'Active and revoked grants, newest first; `name` and `icon_url` come from the game’s approved store page (null without one). `processed_abroad` (in every grant answer) is true when that store page’s `controller_country` is not BR, or when there is no approved store page: the consent then says players’ data is processed abroad.',
    response: ARCADE_ANSWERS.grants,
    example: { data: [grant, { ...grant, revoked_at: '2026-11-22T08:00:00.000Z' }] },
  }),
  agree: doc({
    summary: 'Let a game know who you are',
    description: `Body \`{ app_id, nickname }\` (any other field is 400 \`fields_invalid\`). Answers 201 when it agrees or renews a revoked grant, and **200** with the same body when the grant was already active (nothing changes, the nickname sent is ignored). An unknown or removed game is 404 \`app_not_found\`. ${NICKNAME_RULES} The player id for the game stays the same across a revoke and a new agreement.`,
    errors: ['invalid_request:fields_invalid', 'not_found:app_not_found', 'invalid_request:nickname_invalid'],
    status: 201,
    alsoAnswers: { 200: 'The grant was already active: nothing changed, the same body.' },
    response: ARCADE_ANSWERS.grant,
    example: { data: { grant } },
  }),
  rename: doc({
    summary: 'Change your nickname for a game',
    description: `Body \`{ nickname }\` (any other field is 400 \`fields_invalid\`). ${NICKNAME_RULES} 10 changes a day per account (only those made count), then 429 with \`retry_after\`. The game’s server gets a \`nickname_changed\` data event only when the grant is active and the name differs. No grant for the game is 404 \`app_not_found\`.`,
    errors: [
      'invalid_request:fields_invalid',
      'invalid_request:nickname_invalid',
      'not_found:app_not_found',
      'rate_limited:rate_limited',
    ],
    response: ARCADE_ANSWERS.grant,
    example: { data: { grant: { ...grant, nickname: 'Capitã Zoë' } } },
  }),
  revoke: doc({
    summary: 'Revoke or forget a grant',
    description:
      'Revokes: the game gets no more identity tokens and a `grant_revoked` data event; the player id stays. With `forget=true` the grant and the player id are deleted (`grant_forgotten`); the next agreement makes a new id. Revoking again changes nothing. No grant nor player id for the game is 404 `app_not_found`. A page with the game open hears `GRANT_UPDATE`.',
    errors: ['not_found:app_not_found'],
    response: ARCADE_ANSWERS.revoked,
    example: { data: null },
  }),
  launch: doc({
    summary: 'Open a game',
    description:
      'Opens the live release and records the play: a launch of kind `live` in mode `live` (the owner’s development URL is kind `override`, mode `test`). An unknown slug is 404 `app_not_found`; a game that is not listed, carries a notice or has no live release is 403 `not_playable`. A live release asking `identify` needs an active grant first (403 `grant_required`, and nothing is recorded). `identity` is an ES256 JWT for 15 minutes (claims `iss`, `aud` app id, `sub` player id, `nickname`, `scope`, `iid`), verified with `GET /arcade/jwks`, or null when the release does not ask for `identify`.',
    errors: ['not_found:app_not_found', 'forbidden:not_playable', 'forbidden:grant_required'],
    response: ARCADE_ANSWERS.launch,
    example: { data: launch },
  }),
  stream: doc({
    summary: 'Events for an open game (server-sent events)',
    description:
      'Your own play only (anyone else’s, or an unknown id, is 404 `instance_not_found`). `ready` first with `instance_id`, `granted`, `nickname` and `scopes`; then `GRANT_UPDATE` with the same members whenever your grant changes; for a test play `CLOSE` (`reason` `override_changed`) when the development URL is cleared, expires or moves to another origin, and the stream ends. A `: keep-alive` comment comes every 10 seconds.',
    errors: ['not_found:instance_not_found'],
    produces: 'text/event-stream',
    headers: { 'Cache-Control': '`no-store`', 'X-Accel-Buffering': '`no`: proxies pass events on at once.' },
    example: stream,
  }),
};
