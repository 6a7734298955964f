// What the tests of the event catalogue share (app-events-types-*.test.ts): a person whose app is subscribed
// to some types at a receiver, the events an app was delivered or was made, and the checks every event gets.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import type { Scope } from '../../shared/keys/scopes.js';
import type { EventReceiver, ReceivedEvent } from './event-receiver.js';
import { appWithKey } from './factories.js';
import type { TestClient } from './http-client.js';
import * as people from './people.js';
import { until } from './wait.js';

export type Subscriber = Awaited<ReturnType<typeof subscribedPerson>>;

/** A new person, an app of theirs holding `scopes` (and a key), subscribed at `receiver` to `types`. */
export async function subscribedPerson(
  http: TestClient,
  receiver: EventReceiver,
  username: string,
  scopes: Scope[],
  types: string[],
) {
  const owner = await people.namedPerson(http, username);
  const made = await appWithKey(owner.account.id, scopes);
  const res = await owner.site.patch(`/api/v1/account/apps/${made.app.id}`, { events: { url: receiver.url, types } });
  expect(res.status, res.text).to.equal(200);
  return { ...owner, appId: made.app.id, token: made.token };
}

/** The events of `type` `receiver` verified for `appId`, in `seq` order. */
export function delivered(receiver: EventReceiver, appId: string, type: string): ReceivedEvent[] {
  return receiver
    .of(type)
    .filter((event) => event.claims.aud === appId)
    .sort((a, b) => a.claims.seq - b.claims.seq);
}

/** Waits for the `count`th event of `type` for `appId` (in seq order) and answers it, its claims checked. */
export async function nth(
  receiver: EventReceiver,
  who: { appId: string; account: { id: string } },
  type: string,
  count = 1,
): Promise<ReceivedEvent> {
  await until(async () => delivered(receiver, who.appId, type).length >= count);
  const event = delivered(receiver, who.appId, type)[count - 1];
  expect(event.claims.type).to.equal(type);
  expect(event.claims.sub).to.equal(who.account.id);
  expect(event.claims.aud).to.equal(who.appId);
  expect(event.typ).to.equal('event+jwt');
  expect(event.headers.id).to.equal(event.claims.jti);
  expect(receiver.refused, 'events that failed verification').to.equal(0);
  return event;
}

/** How many events of `type` were made for `appId` (written with their change, delivered or not). */
export async function made(appId: string, type?: string): Promise<number> {
  const query = db()('app_events').where({ app_id: appId });
  if (type) query.where({ type });
  const [{ count }] = await query.count<Array<{ count: string }>>('* as count');
  return Number(count);
}
