// PUT/DELETE /likes/{kind}/{id} (DECISIONS: Likes and comments): each likeable kind liked and unliked, a
// repeat changing nothing, one's own thing refused, what the liker may not see 404 (its own visibility,
// blocks either way, moderation's removal), the kinds and ids a path may name, and the scopes. The
// caller's list: likes-list.test.ts; parallel likes: likes-parallel.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { namedPerson } from '../helpers/people.js';
import {
  circle,
  keyed,
  LIKEABLE,
  likesOf,
  NOT_FOUND_REASON,
  READERS,
  refused,
  thing,
  type Reader,
} from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const MISSING = '6a1f3c2e-9b8d-4e7f-a0c1-2d3e4f5a6b7c';
const VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;
/** Who may like a thing of each visibility (the owner never: own_content; nobody across a block). */
const MAY_LIKE: Record<(typeof VISIBILITIES)[number], Reader[]> = {
  PUBLIC: ['follower', 'requester', 'stranger'],
  FOLLOWERS: ['follower'],
  PRIVATE: [],
};

describe('likes: liking and unliking', () => {
  useCleanDatabase();
  const app = useTestApp();

  const rowsOf = (subjectId: string) => db()('likes').where({ subject_id: subjectId });

  for (const kind of LIKEABLE) {
    it(`likes a ${kind} once however often it is sent, and unlikes it the same way`, async () => {
      const owner = await namedPerson(app.client, `lk_${kind}_owner`);
      const first = await namedPerson(app.client, `lk_${kind}_one`);
      const second = await namedPerson(app.client, `lk_${kind}_two`);
      const liked = await thing(owner.account.id, kind);
      const path = `/api/v1/likes/${kind}/${liked.id}`;

      const put = await first.site.put(path);
      expect(put.status, put.text).to.equal(200);
      expect(put.body).to.deep.equal({ data: { liked: true, likes: 1 } });
      expect((await first.site.put(path)).body.data).to.deep.equal({ liked: true, likes: 1 });
      expect((await second.site.put(path)).body.data).to.deep.equal({ liked: true, likes: 2 });
      const rows = await rowsOf(liked.rowId);
      expect(rows.map((row) => row.account_id).sort()).to.deep.equal([first.account.id, second.account.id].sort());
      expect(rows.every((row) => row.subject_kind === kind)).to.equal(true);

      const unliked = await first.site.delete(path);
      expect(unliked.status, unliked.text).to.equal(200);
      expect(unliked.body).to.deep.equal({ data: { liked: false, likes: 1 } });
      expect((await first.site.delete(path)).body.data).to.deep.equal({ liked: false, likes: 1 });
      expect(await likesOf(liked)).to.equal(1);
      expect(await rowsOf(liked.rowId)).to.have.length(1);
    });
  }

  it('refuses one’s own thing with own_content, removed or not, liking or unliking', async () => {
    const owner = await namedPerson(app.client, 'lk_self');
    for (const kind of LIKEABLE) {
      for (const fields of [{}, { removed_at: new Date() }]) {
        const own = await thing(owner.account.id, kind, fields);
        for (const send of [owner.site.put.bind(owner.site), owner.site.delete.bind(owner.site)]) {
          refused(await send(`/api/v1/likes/${kind}/${own.id}`), 400, {
            code: 'invalid_request',
            reason: 'own_content',
          });
        }
        expect(await likesOf(own)).to.equal(0);
      }
    }
    expect(await db()('likes').where({ account_id: owner.account.id })).to.have.length(0);
  });

  it('likes only what the liker may see: its visibility, blocks either way, and removal', async function () {
    this.timeout(30_000);
    const people = await circle(app.client, 'lk_vis', 'PRIVATE');
    for (const kind of LIKEABLE) {
      for (const visibility of VISIBILITIES) {
        const target = await thing(people.owner.id, kind, { visibility });
        const path = `/api/v1/likes/${kind}/${target.id}`;
        const expected: string[] = [];
        for (const reader of READERS) {
          const label = `${reader} liking a ${visibility} ${kind}`;
          const res = await people.sites[reader].put(path);
          if (reader === 'owner') refused(res, 400, { reason: 'own_content' }, label);
          else if (reader === 'anonymous') refused(res, 401, { code: 'unauthorized' }, label);
          else if (!MAY_LIKE[visibility].includes(reader)) {
            refused(res, 404, { code: 'not_found', reason: NOT_FOUND_REASON[kind] }, label);
            // Unliking is judged the same way.
            refused(await people.sites[reader].delete(path), 404, { reason: NOT_FOUND_REASON[kind] }, label);
          } else {
            expect(res.status, `${label}: ${res.text}`).to.equal(200);
            expected.push(people.ids[reader as Exclude<Reader, 'anonymous'>]);
          }
        }
        const likers = await db()('likes').where({ subject_id: target.rowId }).pluck('account_id');
        expect(likers.sort(), `${visibility} ${kind}`).to.deep.equal(expected.sort());
        expect(await likesOf(target)).to.equal(expected.length);
      }
      // Removed by moderation: gone for everyone but its author.
      const removed = await thing(people.owner.id, kind, { removed_at: new Date() });
      refused(await people.sites.follower.put(`/api/v1/likes/${kind}/${removed.id}`), 404, {
        reason: NOT_FOUND_REASON[kind],
      });
    }
  });

  it('stops an existing like from being changed once the thing is out of sight', async () => {
    const owner = await namedPerson(app.client, 'lk_hidden_owner');
    const fan = await namedPerson(app.client, 'lk_hidden_fan');
    const target = await thing(owner.account.id, 'review');
    expect((await fan.site.put(`/api/v1/likes/review/${target.id}`)).status).to.equal(200);
    await db()('reviews').where({ id: target.rowId }).update({ visibility: 'PRIVATE' });
    refused(await fan.site.delete(`/api/v1/likes/review/${target.id}`), 404, { reason: 'review_not_found' });
    // The like stays, and counts.
    expect(await likesOf(target)).to.equal(1);
  });

  it('names lists and screenshots by public id, reviews and journeys by id; other kinds are 404', async () => {
    const owner = await namedPerson(app.client, 'lk_ids_owner');
    const fan = await namedPerson(app.client, 'lk_ids_fan');
    for (const kind of ['list', 'screenshot'] as const) {
      const target = await thing(owner.account.id, kind);
      refused(await fan.site.put(`/api/v1/likes/${kind}/${target.rowId}`), 404, { reason: NOT_FOUND_REASON[kind] });
      refused(await fan.site.put(`/api/v1/likes/${kind}/nope`), 404, { reason: NOT_FOUND_REASON[kind] });
    }
    for (const kind of ['review', 'journey'] as const) {
      refused(await fan.site.put(`/api/v1/likes/${kind}/${MISSING}`), 404, { reason: NOT_FOUND_REASON[kind] });
      refused(await fan.site.put(`/api/v1/likes/${kind}/not-a-uuid`), 404, { reason: NOT_FOUND_REASON[kind] });
    }
    const session = await thing(owner.account.id, 'session');
    const review = await thing(owner.account.id, 'review');
    for (const path of [
      `session/${session.id}`,
      `diary/${session.id}`,
      `REVIEW/${review.id}`,
      `comment/${review.id}`,
      `profile/lk_ids_owner`,
    ]) {
      const res = await fan.site.put(`/api/v1/likes/${path}`);
      refused(res, 404, { code: 'not_found' }, path);
      expect(res.body.error.reason, path).to.equal(undefined);
    }
    refused(await fan.site.put(`/api/v1/likes/review/${'a'.repeat(101)}`), 400, {
      field: 'id',
      reason: 'too_long',
    });
    expect(await db()('likes').where({ account_id: fan.account.id })).to.have.length(0);
  });

  it('needs a caller, and a key holding social.write', async () => {
    const owner = await namedPerson(app.client, 'lk_keys_owner');
    const fan = await namedPerson(app.client, 'lk_keys_fan');
    const target = await thing(owner.account.id, 'journey');
    const path = `/api/v1/likes/journey/${target.id}`;
    const anonymous = new SiteClient(app.client);
    refused(await anonymous.put(path), 401, { code: 'unauthorized' });
    refused(await anonymous.delete(path), 401, { code: 'unauthorized' });

    const reader = await keyed(app.client, fan.account.id, ['social.read']);
    refused(await reader.put(path), 403, { code: 'insufficient_scope', scope: 'social.write' });
    refused(await reader.delete(path), 403, { code: 'insufficient_scope', scope: 'social.write' });
    // profile.write changes follows, not likes.
    const follows = await keyed(app.client, fan.account.id, ['profile.write']);
    refused(await follows.put(path), 403, { code: 'insufficient_scope', scope: 'social.write' });

    const writer = await keyed(app.client, fan.account.id, ['social.write']);
    const liked = await writer.put(path);
    expect(liked.status, liked.text).to.equal(200);
    expect(liked.body.data).to.deep.equal({ liked: true, likes: 1 });
    expect(liked.headers.get('x-ratelimit-resource')).to.equal('write');
    expect((await writer.delete(path)).body.data).to.deep.equal({ liked: false, likes: 0 });
  });

  it('refuses a suspended account’s like', async () => {
    const owner = await namedPerson(app.client, 'lk_susp_owner');
    const fan = await namedPerson(app.client, 'lk_susp_fan');
    await db()('infractions').insert({
      account_id: fan.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    const target = await thing(owner.account.id, 'review');
    refused(await fan.site.put(`/api/v1/likes/review/${target.id}`), 403, { reason: 'suspended' });
    expect(await likesOf(target)).to.equal(0);
  });
});
