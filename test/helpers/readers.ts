// One reader of each relation to an owner, for the visibility matrices of what people write: the owner
// (with a private library, which changes nothing of a thing with its own visibility), a follower, one whose
// follow request waits, a stranger, nobody signed in, and two across a block (each side blocking; a block
// wins over the follow they also hold).
import { db } from '../../shared/platform/db/knex.js';
import type { TestClient } from './http-client.js';
import { block, follow, namedPerson } from './people.js';
import { SiteClient } from './site-client.js';

export const VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export type Reader = 'owner' | 'follower' | 'requester' | 'stranger' | 'anonymous' | 'blocked' | 'blocker';

/** Who reads each visibility: the author always, followers FOLLOWERS, nobody across a block either way. */
export const SEES: Record<Visibility, Reader[]> = {
  PUBLIC: ['owner', 'follower', 'requester', 'stranger', 'anonymous'],
  FOLLOWERS: ['owner', 'follower'],
  PRIVATE: ['owner'],
};
export const READERS: Reader[] = ['owner', 'follower', 'requester', 'stranger', 'anonymous', 'blocked', 'blocker'];

/** The owner `<prefix>_owner` and a site client for each reader, named `<prefix>_<reader>`. */
export async function readersOf(http: TestClient, prefix: string) {
  const owner = await namedPerson(http, `${prefix}_owner`, 'PRIVATE');
  const sites: Record<Reader, SiteClient> = { owner: owner.site, anonymous: new SiteClient(http) } as never;
  for (const reader of ['follower', 'requester', 'stranger', 'blocked', 'blocker'] as const) {
    const person = await namedPerson(http, `${prefix}_${reader}`);
    sites[reader] = person.site;
    if (reader === 'follower') await follow(person.account.id, owner.account.id);
    if (reader === 'requester') {
      await db()('follow_requests').insert({ requester_id: person.account.id, target_id: owner.account.id });
    }
    if (reader === 'blocked') {
      await follow(person.account.id, owner.account.id);
      await block(owner.account.id, person.account.id);
    }
    if (reader === 'blocker') {
      await follow(person.account.id, owner.account.id);
      await block(person.account.id, owner.account.id);
    }
  }
  return { owner, sites };
}
