// The client's types of events for integrations (client/index.ts over the reference's `webhooks`): checked
// by the compiler (npm run typecheck compiles this file: a wrong type fails it there), and once at run time
// on a token signed and verified as a receiver verifies one. The README's receiver is docs/examples/
// event-receiver.ts, compiled through the import below, and the README shows that file as it is.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import type { components, WebhookEvent, WebhookEventOf, WebhookEventType } from '../../client/index.js';
import type { work } from '../../docs/examples/event-receiver.js';
import { EVENT_TYPES, type EventType } from '../../shared/events/event-types.js';
import { PROJECT_ROOT } from '../../shared/platform/project-root.js';

/** `true` only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(value: Same<A, B>) => value;

// The client knows exactly the catalogue's types.
same<WebhookEventType, EventType>(true);
// A thing's data is the component its read route answers; a deletion's, its ids; a ping's, nothing.
same<WebhookEventOf<'review.saved'>['data'], components['schemas']['Review']>(true);
same<WebhookEventOf<'library.entry.saved'>['data'], components['schemas']['OwnLibraryEntry']>(true);
same<WebhookEventOf<'notification.created'>['data'], components['schemas']['Notification']>(true);
same<WebhookEventOf<'library.entry.deleted'>['data'], { game_id: number; entry_id: string }>(true);
same<WebhookEventOf<'list.deleted'>['data'], { id: string }>(true);
same<WebhookEventOf<'ping'>['type'], 'ping'>(true);
same<'sub' extends keyof WebhookEventOf<'ping'> ? true : false, false>(true);
same<WebhookEventOf<'profile.updated'>['sub'], string>(true);
// The union is told apart by `type`.
same<WebhookEvent['type'], EventType>(true);
same<Extract<WebhookEvent, { type: 'list.saved' }>, WebhookEventOf<'list.saved'>>(true);
// The README's receiver queues verified claims.
same<(typeof work)[number]['jti'], string | undefined>(true);

/** What a receiver does with an event, by type: the compiler narrows `data` in each branch. */
function describe_(event: WebhookEvent): string {
  switch (event.type) {
    case 'review.saved':
      return `review ${event.data.id} of game ${event.data.game_id} (${event.data.visibility})`;
    case 'library.entry.deleted':
      return `entry ${event.data.entry_id} of game ${event.data.game_id} deleted`;
    case 'ping':
      return `ping #${event.seq}`;
    default:
      return `${event.type} for ${event.sub}`;
  }
}

describe('the client’s types of events for integrations', () => {
  it('types a token verified as the README’s receiver verifies it', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const claims: Omit<WebhookEventOf<'library.entry.deleted'>, 'iss' | 'iat'> = {
      aud: '7c1d4e9a-2b3f-4a5c-8d6e-9f0a1b2c3d4e',
      jti: '01936f3e-5b2a-7c4d-8e9f-0a1b2c3d4e5f',
      type: 'library.entry.deleted',
      sub: '2e5f8a1b-4c7d-4e0f-9a3b-6c8d1e4f7a20',
      seq: 7,
      data: { game_id: 1942, entry_id: '5b8e2f0a-3c71-4d9e-a6b2-7f1c0e9d4a38' },
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'event+jwt', kid: 'k1' })
      .setIssuer('https://jogatina.example')
      .setIssuedAt()
      .sign(privateKey);
    const options = { issuer: 'https://jogatina.example', audience: claims.aud, typ: 'event+jwt' };
    const { payload } = await jwtVerify<WebhookEvent>(token, createLocalJWKSet({ keys: [jwk] }), options);
    expect(describe_(payload)).to.equal('entry 5b8e2f0a-3c71-4d9e-a6b2-7f1c0e9d4a38 of game 1942 deleted');
    // Another typ (an Arcade data event's) is refused.
    const other = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'data-event+jwt', kid: 'k1' })
      .setIssuer('https://jogatina.example')
      .sign(privateKey);
    const refused = await jwtVerify(other, createLocalJWKSet({ keys: [jwk] }), options).catch(() => 'refused');
    expect(refused).to.equal('refused');
    expect(EVENT_TYPES).to.include(payload.type);
  });

  it('shows in the README the receiver that compiles here', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
    const receiver = blocks.find((block) => block.includes('createRemoteJWKSet'));
    expect(receiver, 'a ts block with the receiver').to.exist;
    const example = readFileSync(path.join(PROJECT_ROOT, 'docs/examples/event-receiver.ts'), 'utf8');
    expect(example.endsWith(receiver!), 'docs/examples/event-receiver.ts ends with the README’s block').to.equal(true);
  });
});
