// The feed picks items by the visibility each stores (migration activity_item_visibility): what an item is
// about may change after the item was written, and the feed must follow at once. Each case changes the
// subject (or the library) in the database, or through the route that changes it, and reads the feed over
// HTTP as the readers it concerns.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import {
  follow,
  journey,
  libraryEntry,
  list,
  namedPerson,
  playSession,
  review,
  screenshot,
} from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Fields = Record<string, unknown>;

/** The subject factories of the kinds that carry their own visibility, with their table. */
const OWN_KINDS: Array<[string, string, (owner: string, fields?: Fields) => Promise<Fields>]> = [
  ['review', 'reviews', review],
  ['session', 'play_sessions', playSession],
  ['list', 'lists', list],
  ['journey', 'journeys', journey],
  ['screenshot', 'screenshots', screenshot],
];

async function item(accountId: string, kind: string, subjectId: unknown): Promise<string> {
  const [row] = await db()('activity_items')
    .insert({ account_id: accountId, kind, subject_id: subjectId, game_id: 1 })
    .returning('id');
  return row.id as string;
}

describe('activity items keep the visibility of what they are about', () => {
  useCleanDatabase();
  const app = useTestApp();
  const anonymous = () => new SiteClient(app.client);
  /** The ids of one person's feed as `site` reads it. */
  const feed = async (site: SiteClient, username: string) => {
    const res = await site.get(`/api/v1/activity?profile=${username}`);
    expect(res.status, res.text).to.equal(200);
    return (res.body.data as Array<{ id: string }>).map((row) => row.id);
  };

  /** An owner with a follower, named after the case. */
  async function cast(name: string) {
    const owner = await namedPerson(app.client, `${name}_owner`);
    const follower = await namedPerson(app.client, `${name}_fan`);
    await follow(follower.account.id, owner.account.id);
    return { owner, follower, username: `${name}_owner` };
  }

  it('follows a subject made FOLLOWERS, PRIVATE and PUBLIC again after its item was written', async () => {
    const { owner, follower, username } = await cast('sv_own');
    const items = new Map<string, string>();
    for (const [kind, table, make] of OWN_KINDS) {
      const subject = await make(owner.account.id);
      items.set(await item(owner.account.id, kind, subject.id), table);
    }
    const all = [...items.keys()].sort();
    const setAll = async (visibility: string) => {
      for (const [id, table] of items) {
        const { subject_id: subject } = await db()('activity_items').where({ id }).first('subject_id');
        await db()(table).where({ id: subject }).update({ visibility });
      }
    };
    expect((await feed(anonymous(), username)).sort()).to.deep.equal(all);

    await setAll('FOLLOWERS');
    expect(await feed(anonymous(), username)).to.deep.equal([]);
    expect((await feed(follower.site, username)).sort()).to.deep.equal(all);

    await setAll('PRIVATE');
    expect(await feed(follower.site, username)).to.deep.equal([]);
    expect((await feed(owner.site, username)).sort()).to.deep.equal(all);

    await setAll('PUBLIC');
    expect((await feed(anonymous(), username)).sort()).to.deep.equal(all);
  });

  it('shows entries by the library visibility the owner sets with PATCH /profile, and other items by their own', async () => {
    const { owner, follower, username } = await cast('sv_lib');
    const entry = await item(owner.account.id, 'entry', (await libraryEntry(owner.account.id)).id);
    const own = await item(owner.account.id, 'review', (await review(owner.account.id)).id);
    const both = [entry, own].sort();
    const patch = async (visibility: string) =>
      expect((await owner.site.patch('/api/v1/profile', { library_visibility: visibility })).status).to.equal(200);

    // The first change writes the person's profile row; the later ones update it.
    await patch('FOLLOWERS');
    expect(await feed(anonymous(), username)).to.deep.equal([own]);
    expect((await feed(follower.site, username)).sort()).to.deep.equal(both);

    await patch('PRIVATE');
    expect(await feed(follower.site, username)).to.deep.equal([own]);
    expect((await feed(owner.site, username)).sort()).to.deep.equal(both);

    await patch('PUBLIC');
    expect((await feed(anonymous(), username)).sort()).to.deep.equal(both);

    // A profile row gone (as when it is deleted with its account's other rows) leaves the library PUBLIC.
    await patch('PRIVATE');
    await db()('profiles').where({ account_id: owner.account.id }).del();
    expect((await feed(anonymous(), username)).sort()).to.deep.equal(both);
  });

  it('hides a capture removed by moderation from everyone, its author too, until it is restored', async () => {
    const { owner, follower, username } = await cast('sv_mod');
    const shot = await screenshot(owner.account.id);
    const id = await item(owner.account.id, 'screenshot', shot.id);

    await db()('screenshots').where({ id: shot.id }).update({ removed_at: new Date() });
    for (const site of [anonymous(), follower.site, owner.site]) expect(await feed(site, username)).to.deep.equal([]);
    // Its owner changing the capture's visibility does not bring it back.
    await db()('screenshots').where({ id: shot.id }).update({ visibility: 'FOLLOWERS' });
    expect(await feed(owner.site, username)).to.deep.equal([]);

    await db()('screenshots').where({ id: shot.id }).update({ removed_at: null });
    expect(await feed(anonymous(), username)).to.deep.equal([]);
    expect(await feed(follower.site, username)).to.deep.equal([id]);
  });

  it('hides an item whose subject is deleted, from its author too', async () => {
    const { owner, username } = await cast('sv_gone');
    const kept = await review(owner.account.id);
    const gone = await review(owner.account.id);
    const entry = await libraryEntry(owner.account.id);
    const keptItem = await item(owner.account.id, 'review', kept.id);
    await item(owner.account.id, 'review', gone.id);
    await item(owner.account.id, 'entry', entry.id);

    await db()('reviews').where({ id: gone.id }).del();
    await db()('library_entries').where({ id: entry.id }).del();
    expect(await feed(owner.site, username)).to.deep.equal([keptItem]);
    expect(await feed(anonymous(), username)).to.deep.equal([keptItem]);
  });

  it('decides an item’s visibility itself, whatever its writer says, even with the subject in the same statement', async () => {
    const { owner, follower, username } = await cast('sv_write');
    const secret = await review(owner.account.id, { visibility: 'FOLLOWERS' });
    const claimed = await db()('activity_items')
      .insert({ account_id: owner.account.id, kind: 'review', subject_id: secret.id, visibility: 'PUBLIC' })
      .returning('id');
    // One statement writes a private review and its item: the item's visibility is derived once the
    // statement is done, when the review can be seen.
    const { rows } = await db().raw<{ rows: Array<{ id: string }> }>(
      `WITH r AS (INSERT INTO reviews (account_id, game_id, body, visibility) VALUES (?, 1, 'Mine.', 'PRIVATE')
         RETURNING id, account_id)
       INSERT INTO activity_items (account_id, kind, subject_id, visibility)
       SELECT account_id, 'review', id, 'PUBLIC' FROM r RETURNING id`,
      [owner.account.id],
    );
    const stored = await db()('activity_items').whereIn('id', [claimed[0].id, rows[0].id]).orderBy('visibility');
    expect(stored.map((row) => row.visibility)).to.deep.equal(['FOLLOWERS', 'PRIVATE']);
    expect(await feed(anonymous(), username)).to.deep.equal([]);
    expect(await feed(follower.site, username)).to.deep.equal([claimed[0].id]);
    expect((await feed(owner.site, username)).sort()).to.deep.equal([claimed[0].id, rows[0].id].sort());
  });

  it('still decides suspension per author when read: an expired suspension shows the author again', async () => {
    const { owner } = await cast('sv_sus');
    const id = await item(owner.account.id, 'review', (await review(owner.account.id)).id);
    const [infraction] = await db()('infractions')
      .insert({ account_id: owner.account.id, reason: 'Suspensão', expires_at: new Date(Date.now() + 86_400_000) })
      .returning('id');
    const everyone = async () =>
      ((await anonymous().get('/api/v1/activity')).body.data as Array<{ id: string }>).map((row) => row.id);
    expect(await everyone()).not.to.include(id);
    await db()('infractions')
      .where({ id: infraction.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await everyone()).to.include(id);
  });
});
