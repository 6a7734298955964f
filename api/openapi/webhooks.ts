// Events for integrations in the reference (DECISIONS: Events for integrations): OpenAPI 3.1's top-level
// `webhooks`, one POST per type of the catalogue (shared/events/event-types.ts), and each type's claims
// named under `components.schemas` as `Event_<type>`. It is apart from build-document.ts because events
// are not routes: the paths are read from the router's layers, the webhooks from the catalogue, so a type
// added there is documented here without any route. A type that carries a thing names, as its `data`, the
// very component the owner's read route answers with (imported from shapes/: one definition), and takes
// its example from that route's own example in `paths`, so both say the same thing.
import { EVENT_TYPE_SCOPES, EVENT_TYPES, type EventType } from '../../shared/events/event-types.js';
import { RETRY_SCHEDULE_SECONDS } from '../../shared/delivery/engine.js';
import { constant, integer, object, string, uri, uuid, type SchemaObject } from './response-schemas.js';
import { JournalSession, Journey } from './shapes/journal.js';
import { OwnLibraryEntry } from './shapes/library.js';
import { GameList } from './shapes/lists.js';
import { Notification } from './shapes/notifications.js';
import { Profile } from './shapes/profile.js';
import { Review } from './shapes/reviews.js';
import { OwnCapture } from './shapes/screenshots.js';

export const EVENTS_TAG = {
  name: 'Events for integrations',
  description:
    'Signed events POSTed to the URL an app subscribes with `PATCH /api/v1/account/apps/{id}` (`events`): what happens to its owner’s account, without polling.',
};

/** The name under `components.schemas` of the claims of `type`. */
export const claimsSchemaName = (type: EventType) => `Event_${type}`;

interface Carried {
  summary: string;
  /** The owner's routes answering the thing, best first (`METHOD /path` under /api/v1); the first present is named. */
  reads: string[];
  data: SchemaObject;
}

interface IdsOnly {
  summary: string;
  data: SchemaObject;
  example: Record<string, unknown>;
}

const EVENT_ID = '01936f3e-5b2a-7c4d-8e9f-0a1b2c3d4e5f';
const GAME_ID = 1942;

/** What each type says and carries: a `Record` of the catalogue's types, so a new type needs its words to compile. */
const EVENTS: Record<EventType, Carried | IdsOnly> = {
  'library.entry.saved': {
    summary: 'A library entry was added or changed',
    reads: ['GET /library/{game}'],
    data: OwnLibraryEntry,
  },
  'library.entry.deleted': {
    summary: 'A library entry was removed',
    data: object({
      game_id: integer('The catalog game whose entry it was.'),
      entry_id: uuid('The entry’s own id.'),
    }),
    example: { game_id: GAME_ID, entry_id: '5b8e2f0a-3c71-4d9e-a6b2-7f1c0e9d4a38' },
  },
  'journal.session.closed': {
    summary: 'A play session was closed',
    // The PATCH that closes a session answers it closed (the list's example starts with a live one).
    reads: ['GET /journal/sessions/{id}', 'PATCH /journal/sessions/{id}', 'GET /journal/sessions'],
    data: JournalSession,
  },
  'journal.journey.saved': {
    summary: 'A journey was created or changed',
    reads: ['GET /journal/journeys/{id}', 'GET /journal/journeys', 'PATCH /journal/journeys/{id}'],
    data: Journey,
  },
  'review.saved': { summary: 'A review was written or changed', reads: ['GET /reviews/{id}'], data: Review },
  'review.deleted': {
    summary: 'A review was deleted',
    data: object({ id: uuid('The review’s id, as `GET /reviews/{id}` took it.') }),
    example: { id: '3f6b9c2e-8d41-4a7e-b0c5-9e2d7a1f4b63' },
  },
  'list.saved': { summary: 'A list was created or changed', reads: ['GET /lists/{id}'], data: GameList },
  'list.deleted': {
    summary: 'A list was deleted',
    data: object({ id: string('The list’s public id, as `GET /lists/{id}` took it.') }),
    example: { id: 'q7m2x9k4v1za' },
  },
  'screenshot.saved': {
    summary: 'A screenshot was uploaded or changed',
    reads: ['GET /screenshots/{id}', 'PATCH /screenshots/{id}'],
    data: OwnCapture,
  },
  'screenshot.deleted': {
    summary: 'A screenshot was deleted',
    data: object({ id: string('The capture’s public id, as `/screenshots/{id}` takes it.') }),
    example: { id: 'k3x9q2vz7m4a' },
  },
  'notification.created': {
    summary: 'The owner got a notification',
    reads: ['GET /notifications'],
    data: Notification,
  },
  'profile.updated': {
    summary: 'The profile’s fields or its published layout changed',
    reads: ['GET /profile'],
    data: Profile,
  },
  ping: { summary: 'A ping, sent on request', data: object({}, { description: 'Always `{}`.' }), example: {} },
};

const carries = (event: Carried | IdsOnly): event is Carried => 'reads' in event;

type Paths = Record<string, Record<string, unknown>>;

interface ReadOperation {
  responses?: Record<string, { content?: Record<string, { schema?: SchemaObject; example?: { data?: unknown } }> }>;
}

/** The first of `reads` the document has, with the thing its 200 example shows (a list's first item). */
function readRoute(paths: Paths, reads: string[]) {
  for (const read of reads) {
    const [method, path] = read.split(' ');
    const operation = paths[`/api/v1${path}`]?.[method.toLowerCase()] as ReadOperation | undefined;
    if (!operation) continue;
    const example = operation.responses?.['200']?.content?.['application/json']?.example?.data;
    return { read, many: Array.isArray(example), example: Array.isArray(example) ? example[0] : example };
  }
  throw new Error(`The reference has none of ${reads.join(', ')}: events cannot name their data.`);
}

/** 5 → `5 s`, 300 → `5 min`, 7200 → `2 h`. */
function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The waits between attempts, in words. */
export const RETRY_WORDS = RETRY_SCHEDULE_SECONDS.map(duration).join(', ');

const TOKEN = `The event as a compact JWT signed ES256 by a key of the key set \`GET /api/v1/jwks\` (the same keys as \`/api/v1/arcade/jwks\`), sent as \`Content-Type: application/jwt\`. Its header has \`alg\` \`ES256\`, \`typ\` \`event+jwt\` and \`kid\` (the key that signed it). Its claims: \`iss\` (the service’s address, as \`servers\` names it), \`aud\` (your app’s id), \`jti\` (the event’s id, also the \`webhook-id\` header), \`iat\` (when this attempt was signed), \`type\`, \`sub\` (the owner’s account id; not on \`ping\`), \`seq\` (increasing per app: order by it) and \`data\`. Verify the signature, \`iss\`, \`aud\` and \`typ\` before reading it.`;

const HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The event’s id (= the token’s `jti`): the same on every attempt and redelivery of the event. Drop the repeats you have already handled: delivery is at least once.',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was sent, in Unix seconds (Standard Webhooks): a receiver may refuse old replays.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
];

const RESPONSES = {
  '2XX': {
    description:
      'Delivered: the event is done (the body is not read). Answer within 10 seconds, before doing the work: an answer that has not come by then counts as a failed attempt.',
  },
  '410': {
    description:
      'Gone: the event fails and the subscription is disabled (`state` `disabled`, `disabled_reason` `gone`); the owner is e-mailed. Setting `events` again re-enables it.',
  },
  default: {
    description: `Any other status, no answer within 10 seconds or an address that may not be reached: the attempt failed, and the event is tried again after ${RETRY_WORDS} (the waits between attempts), then fails. Three days with no success while events fail disable the subscription (\`disabled_reason\` \`failing\`); the owner is e-mailed.`,
  },
};

function dataWords(type: EventType, read: string | null, many: boolean): string {
  if (type === 'ping') return '`data` is `{}`, and there is no `sub`: a ping carries nothing of the owner’s.';
  if (!read) return '`data` holds the ids of the thing that was deleted, and nothing else.';
  const as = many ? `one item of \`${read}\`’s \`data\`` : `the \`data\` of \`${read}\``;
  return `\`data\` is the thing as the owner’s own routes answer it (${as}), as it is when the event is first sent: changed again before that, it is sent as it then is; deleted before that, its ids only are sent.`;
}

/**
 * The webhooks of the reference, with the claims schemas they name and their tag. `paths` are the
 * document's own: each carried type's data example, and the read route its words name, come from there.
 */
export function eventWebhooks(paths: Paths, publicUrl: string) {
  const webhooks: Record<string, { post: object }> = {};
  const schemas: Record<string, SchemaObject> = {};
  for (const type of EVENT_TYPES) {
    const event = EVENTS[type];
    const read = carries(event) ? readRoute(paths, event.reads) : null;
    const scope = EVENT_TYPE_SCOPES[type];
    const example = {
      iss: publicUrl,
      aud: '7c1d4e9a-2b3f-4a5c-8d6e-9f0a1b2c3d4e',
      jti: EVENT_ID,
      iat: 1795000000,
      type,
      ...(type === 'ping' ? {} : { sub: '2e5f8a1b-4c7d-4e0f-9a3b-6c8d1e4f7a20' }),
      seq: 42,
      data: read ? read.example : (event as IdsOnly).example,
    };
    const name = claimsSchemaName(type);
    schemas[name] = {
      ...object(
        {
          iss: uri('The service’s address, as the reference’s `servers` names it.'),
          aud: uuid('Your app’s id.'),
          jti: uuid('The event’s id, also sent as `webhook-id`: the same on every attempt and redelivery.'),
          iat: integer('When this attempt was signed, in Unix seconds.'),
          type: constant(type),
          ...(type === 'ping' ? {} : { sub: uuid('The owner’s account id.') }),
          seq: integer('Increases with each event made for your app: order events by it, not by their arrival.'),
          data: event.data,
        },
        { description: `The claims of a \`${type}\` event, once its token is verified.` },
      ),
      examples: [example],
    };
    const words = [
      scope
        ? `Sent to an app subscribed to \`${type}\` that holds \`${scope}\`.`
        : 'Sent when asked for with `POST /api/v1/account/apps/{id}/events/ping`.',
      dataWords(type, read?.read ?? null, read?.many ?? false),
      `The token’s claims are \`${name}\` (components).`,
    ];
    webhooks[type] = {
      post: {
        operationId: `event_${type.replaceAll('.', '_')}`,
        tags: [EVENTS_TAG.name],
        summary: event.summary,
        description: words.join('\n\n'),
        ...(scope ? { 'x-scope': scope } : {}),
        parameters: HEADERS,
        requestBody: {
          required: true,
          description: TOKEN,
          content: {
            'application/jwt': {
              schema: {
                type: 'string',
                description: `A compact JWT whose claims are \`${name}\`.`,
                contentMediaType: 'application/jwt',
                contentSchema: { $ref: `#/components/schemas/${name}` },
              },
            },
          },
        },
        responses: RESPONSES,
      },
    };
  }
  return { tag: EVENTS_TAG, webhooks, schemas };
}
