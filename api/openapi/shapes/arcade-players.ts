// What players and game servers receive from Arcade (spec arcade.md: Grant, Launch, Key set, data events;
// shared/arcade/grants.ts, launch.ts, delivery-log.ts).
import {
  boolean,
  constant,
  component,
  dateTime,
  integer,
  list,
  nullable,
  object,
  oneOf,
  string,
  uri,
  uuid,
} from '../response-schemas.js';
import { ReleaseScopes } from './arcade.js';

export const Grant = component(
  'Grant',
  object({
    app_id: uuid(),
    slug: string(),
    name: nullable(string('From the approved store page.')),
    icon_url: nullable(uri()),
    scopes: ReleaseScopes,
    nickname: string(),
    processed_abroad: boolean(
      'Whether the game’s data controller is outside Brazil, so the consent says data is processed abroad: `controller_country` of the approved store page is not BR (true without an approved store page).',
    ),
    granted_at: dateTime(),
    revoked_at: nullable(dateTime()),
  }),
);

export const Launch = component(
  'Launch',
  object({
    instance_id: uuid(),
    kind: oneOf(
      ['live', 'override'],
      '`live`: the store’s launch of the live release; `override`: the owner’s launch of the development URL.',
    ),
    mode: oneOf(['live', 'test'], '`live` for a `live` launch, `test` for an `override` one.'),
    url: uri(),
    release_number: integer(),
    identity: nullable(string('An ES256 JWT for 15 minutes, or null when the release does not ask for identify.')),
  }),
);

export const KeySet = component(
  'KeySet',
  object(
    {
      keys: list(
        object({
          kty: constant('EC'),
          crv: constant('P-256'),
          x: string(),
          y: string(),
          kid: string(),
          alg: constant('ES256'),
          use: constant('sig'),
        }),
      ),
    },
    { description: 'A JSON Web Key Set: public members only.' },
  ),
);

/** A delivery attempt of a signed event, as both delivery logs show it (shared/delivery/log-pages.ts). */
export const deliveryAttempt = () =>
  object({
    attempted_at: dateTime('When the request went out.'),
    http_status: nullable(integer('The receiver’s status; null when none answered.')),
    duration_ms: integer('How long the request took.'),
    error: nullable(
      string('Why no status came back (`timeout`, `address_denied`, `connect_failed`, ...); null when one did.'),
    ),
    outcome: oneOf(['delivered', 'retrying', 'failed'], 'What the attempt did to the event.'),
  });

export const DataEventAttempt = component('ArcadeDataEventAttempt', deliveryAttempt());

export const DataEvent = component(
  'ArcadeDataEvent',
  object({
    id: uuid('Also the token’s `jti` and the `webhook-id` header.'),
    type: oneOf(['nickname_changed', 'grant_revoked', 'grant_forgotten']),
    player_id: uuid('The token’s `sub`.'),
    status: oneOf(
      ['pending', 'held', 'delivered', 'failed'],
      '`held`: pending while no live release names an events URL.',
    ),
    created_at: dateTime(),
    delivered_at: nullable(dateTime()),
    failed_at: nullable(dateTime()),
    attempts: list(DataEventAttempt, 'The last 20 attempts, newest first.'),
  }),
);

export const DataEventPing = component(
  'ArcadeDataEventPing',
  object({
    id: uuid('The ping’s `jti` and `webhook-id`.'),
    url: uri('The live release’s events URL it went to.'),
    outcome: oneOf(['delivered', 'failed'], '`delivered` when the receiver answered 2xx.'),
    http_status: nullable(integer('The receiver’s status; null when none answered.')),
    duration_ms: integer(),
    error: nullable(string('Why no status came back (`timeout`, `address_denied`, ...); null when one did.')),
  }),
);
