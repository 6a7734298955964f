// What the like and comment tests share: a thing of each kind of a person (straight in the database, as the
// people tests build them, since lists and captures have their own write routes), and a circle of readers
// around one owner: a follower, a requester (an unanswered request is not a follow), a stranger, someone the
// owner blocked, someone who blocked the owner (both still following: a block wins over a follow), and
// nobody signed in.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import type { Scope } from '../../shared/keys/scopes.js';
import { appWithKey } from './factories.js';
import type { TestClient, TestResponse } from './http-client.js';
import * as people from './people.js';
import { SiteClient } from './site-client.js';

export const THING_KINDS = ['review', 'list', 'screenshot', 'journey', 'session'] as const;
export type ThingKind = (typeof THING_KINDS)[number];
export const LIKEABLE = ['review', 'list', 'screenshot', 'journey'] as const;

/** How comments name each kind, and the 404 reason of each. */
export const COMMENT_KIND: Record<ThingKind, string> = {
  review: 'REVIEW',
  list: 'LIST',
  screenshot: 'SCREENSHOT',
  journey: 'JOURNEY',
  session: 'DIARY',
};
export const NOT_FOUND_REASON: Record<ThingKind, string> = {
  review: 'review_not_found',
  list: 'list_not_found',
  screenshot: 'screenshot_not_found',
  journey: 'journey_not_found',
  session: 'session_not_found',
};
export const TABLE: Record<ThingKind, string> = {
  review: 'reviews',
  list: 'lists',
  screenshot: 'screenshots',
  journey: 'journeys',
  session: 'play_sessions',
};

export interface Thing {
  kind: ThingKind;
  /** The row's id. */
  rowId: string;
  /** The id clients name it by. */
  id: string;
}

/** A thing of `ownerId` of `kind`, with the fields given (visibility, removed_at, game_id ...). */
export async function thing(ownerId: string, kind: ThingKind, fields: Record<string, unknown> = {}): Promise<Thing> {
  const create = {
    review: () => people.review(ownerId, fields),
    list: () => people.list(ownerId, fields),
    screenshot: () => people.screenshot(ownerId, fields),
    journey: () => people.journey(ownerId, { title: 'A run', started_at: new Date(), ...fields }),
    session: () => people.playSession(ownerId, fields),
  }[kind];
  const row = await create();
  const id = kind === 'list' || kind === 'screenshot' ? (row.public_id as string) : (row.id as string);
  return { kind, rowId: row.id as string, id };
}

export async function likesOf(target: Thing): Promise<number> {
  return (await db()(TABLE[target.kind]).where({ id: target.rowId }).first('likes')).likes as number;
}

export const READERS = ['owner', 'follower', 'requester', 'stranger', 'anonymous', 'blocked', 'blocker'] as const;
export type Reader = (typeof READERS)[number];

export interface Circle {
  owner: { id: string; username: string; site: SiteClient };
  ids: Record<Exclude<Reader, 'anonymous'>, string>;
  sites: Record<Reader, SiteClient>;
}

/** An owner named `<prefix>_owner` with the given library visibility, and their readers. */
export async function circle(
  http: TestClient,
  prefix: string,
  visibility: people.Visibility = 'PUBLIC',
): Promise<Circle> {
  const owner = await people.namedPerson(http, `${prefix}_owner`, visibility);
  const sites = { owner: owner.site, anonymous: new SiteClient(http) } as Record<Reader, SiteClient>;
  const ids = { owner: owner.account.id } as Circle['ids'];
  for (const reader of ['follower', 'requester', 'stranger', 'blocked', 'blocker'] as const) {
    const person = await people.namedPerson(http, `${prefix}_${reader}`);
    sites[reader] = person.site;
    ids[reader] = person.account.id;
    if (reader === 'follower' || reader === 'blocked' || reader === 'blocker') {
      await people.follow(person.account.id, owner.account.id);
    }
    if (reader === 'requester') {
      await db()('follow_requests').insert({ requester_id: person.account.id, target_id: owner.account.id });
    }
    if (reader === 'blocked') await people.block(owner.account.id, person.account.id);
    if (reader === 'blocker') await people.block(person.account.id, owner.account.id);
  }
  return { owner: { id: owner.account.id, username: `${prefix}_owner`, site: owner.site }, ids, sites };
}

/** Requests with a key of `accountId` holding `scopes`. */
export async function keyed(http: TestClient, accountId: string, scopes: Scope[]) {
  const { token } = await appWithKey(accountId, scopes);
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (path: string) => http.get(path, { headers }),
    put: (path: string) => http.put(path, undefined, { headers }),
    post: (path: string, body: unknown) => http.post(path, body, { headers }),
    delete: (path: string) => http.delete(path, { headers }),
  };
}

/** The answer is this error: its status and the error members given. */
export function refused(res: TestResponse, status: number, members: Record<string, unknown>, label = ''): void {
  expect(res.status, `${label} ${res.text}`).to.equal(status);
  expect(res.body.error, label).to.include(members);
}
