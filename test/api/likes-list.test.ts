// GET /likes (DECISIONS: Likes and comments; Cursor reads): the caller's likes newest first by cursor, one
// kind or all, only what the caller may still see; the reads of every likeable thing show the count a like
// leaves (the review, the feed, the person's lists and journeys); a deleted thing takes its likes.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { block, catalogGame, namedPerson } from '../helpers/people.js';
import { keyed, likesOf, refused, thing, type Thing } from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('likes: what the caller likes, and where counts show', () => {
  useCleanDatabase();
  const app = useTestApp();

  /** Sets when a like was given, to walk the cursor over known instants. */
  const likedAt = (accountId: string, target: Thing, at: string) =>
    db()('likes').where({ account_id: accountId, subject_id: target.rowId }).update({ created_at: at });

  describe('GET /likes', () => {
    it('lists the caller’s likes newest first with their kind, id, author and count, walked by before', async () => {
      const owner = await namedPerson(app.client, 'll_owner');
      const fan = await namedPerson(app.client, 'll_fan');
      const other = await namedPerson(app.client, 'll_other');
      const things: Thing[] = [];
      for (const kind of ['review', 'list', 'screenshot', 'journey', 'review'] as const) {
        const target = await thing(owner.account.id, kind);
        expect((await fan.site.put(`/api/v1/likes/${kind}/${target.id}`)).status).to.equal(200);
        things.push(target);
      }
      await other.site.put(`/api/v1/likes/list/${things[1].id}`);
      // Five instants a microsecond apart, oldest first.
      for (const [i, target] of things.entries()) {
        await likedAt(fan.account.id, target, `2026-11-20T10:00:00.00000${i}Z`);
      }

      const all = await fan.site.get('/api/v1/likes');
      expect(all.status, all.text).to.equal(200);
      expect(all.body).to.have.keys(['data', 'has_more', 'next_before']);
      expect(all.body.data.map((like: { id: string }) => like.id)).to.deep.equal(
        [...things].reverse().map((target) => target.id),
      );
      expect(all.body.data[3]).to.deep.equal({
        kind: 'list',
        id: things[1].id,
        username: 'll_owner',
        likes: 2,
        created_at: '2026-11-20T10:00:00.000001Z',
      });
      expect(all.body).to.include({ has_more: false, next_before: null });

      const first = await fan.site.get('/api/v1/likes?limit=2');
      expect(first.body.data.map((like: { id: string }) => like.id)).to.deep.equal([things[4].id, things[3].id]);
      expect(first.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:00.000003Z' });
      const second = await fan.site.get(`/api/v1/likes?limit=2&before=${first.body.next_before}`);
      expect(second.body.data.map((like: { id: string }) => like.id)).to.deep.equal([things[2].id, things[1].id]);
      const last = await fan.site.get(`/api/v1/likes?limit=2&before=${second.body.next_before}`);
      expect(last.body.data.map((like: { id: string }) => like.id)).to.deep.equal([things[0].id]);
      expect(last.body).to.include({ has_more: false, next_before: null });

      const reviews = await fan.site.get('/api/v1/likes?kind=review');
      expect(reviews.body.data.map((like: { id: string }) => like.id)).to.deep.equal([things[4].id, things[0].id]);
      const journeys = await fan.site.get('/api/v1/likes?kind=journey');
      expect(journeys.body.data).to.have.length(1);
      expect(journeys.body.data[0]).to.include({ kind: 'journey', id: things[3].id, likes: 1 });
      // Someone else's likes are theirs.
      expect((await other.site.get('/api/v1/likes')).body.data.map((like: { id: string }) => like.id)).to.deep.equal([
        things[1].id,
      ]);
    });

    it('never ends a page inside likes given at one instant', async () => {
      const owner = await namedPerson(app.client, 'll_tie_owner');
      const fan = await namedPerson(app.client, 'll_tie_fan');
      const things: Thing[] = [];
      for (let i = 0; i < 4; i += 1) {
        const target = await thing(owner.account.id, 'review');
        await fan.site.put(`/api/v1/likes/review/${target.id}`);
        things.push(target);
      }
      await likedAt(fan.account.id, things[0], '2026-11-20T09:00:00.000000Z');
      for (const target of things.slice(1)) await likedAt(fan.account.id, target, '2026-11-20T10:00:00.000000Z');
      // The group of three does not fit a page of two: it comes whole, then the rest.
      const first = await fan.site.get('/api/v1/likes?limit=2');
      expect(first.body.data).to.have.length(3);
      expect(first.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:00.000000Z' });
      const second = await fan.site.get(`/api/v1/likes?limit=2&before=${first.body.next_before}`);
      expect(second.body.data.map((like: { id: string }) => like.id)).to.deep.equal([things[0].id]);
      expect(second.body).to.include({ has_more: false, next_before: null });
      // A page of three ending before the group of three starts a page later.
      const newest = await thing(owner.account.id, 'review');
      await fan.site.put(`/api/v1/likes/review/${newest.id}`);
      const three = await fan.site.get('/api/v1/likes?limit=3');
      expect(three.body.data.map((like: { id: string }) => like.id)).to.deep.equal([newest.id]);
      expect(three.body.has_more).to.equal(true);
    });

    it('leaves out what the caller may no longer see, whose likes still count', async () => {
      const owner = await namedPerson(app.client, 'll_gone_owner');
      const fan = await namedPerson(app.client, 'll_gone_fan');
      const kept = await thing(owner.account.id, 'review');
      const privately = await thing(owner.account.id, 'list');
      const removed = await thing(owner.account.id, 'screenshot');
      for (const target of [kept, privately, removed]) {
        expect((await fan.site.put(`/api/v1/likes/${target.kind}/${target.id}`)).status).to.equal(200);
      }
      await db()('lists').where({ id: privately.rowId }).update({ visibility: 'FOLLOWERS' });
      await db()('screenshots').where({ id: removed.rowId }).update({ removed_at: new Date() });
      const ids = async () => (await fan.site.get('/api/v1/likes')).body.data.map((like: { id: string }) => like.id);
      expect(await ids()).to.deep.equal([kept.id]);
      expect(await likesOf(privately)).to.equal(1);

      const blocker = await namedPerson(app.client, 'll_gone_blocker');
      const theirs = await thing(blocker.account.id, 'journey');
      await fan.site.put(`/api/v1/likes/journey/${theirs.id}`);
      expect(await ids()).to.have.length(2);
      await block(blocker.account.id, fan.account.id);
      expect(await ids()).to.deep.equal([kept.id]);
    });

    it('refuses what the schema sees, and needs a caller holding social.read', async () => {
      const fan = await namedPerson(app.client, 'll_refused');
      const cases: Array<[string, string, string]> = [
        ['kind=session', 'kind', 'not_allowed'],
        ['kind=REVIEW', 'kind', 'not_allowed'],
        ['limit=0', 'limit', 'out_of_range'],
        ['limit=101', 'limit', 'out_of_range'],
        ['limit=two', 'limit', 'wrong_type'],
        ['before=yesterday', 'before', 'bad_format'],
      ];
      for (const [query, field, reason] of cases) {
        refused(await fan.site.get(`/api/v1/likes?${query}`), 400, { code: 'invalid_request', field, reason }, query);
      }
      expect((await fan.site.get('/api/v1/likes?limit=100')).status).to.equal(200);
      refused(await new SiteClient(app.client).get('/api/v1/likes'), 401, { code: 'unauthorized' });
      const writer = await keyed(app.client, fan.account.id, ['social.write']);
      refused(await writer.get('/api/v1/likes'), 403, { code: 'insufficient_scope', scope: 'social.read' });
      const reader = await keyed(app.client, fan.account.id, ['social.read']);
      const read = await reader.get('/api/v1/likes');
      expect(read.status).to.equal(200);
      expect(read.headers.get('x-ratelimit-resource')).to.equal('read');
    });
  });

  describe('the counts that reads show', () => {
    it('shows each like on the review, the feed, and the person’s lists and journeys', async () => {
      const owner = await namedPerson(app.client, 'll_shown_owner');
      const fans = [await namedPerson(app.client, 'll_shown_a'), await namedPerson(app.client, 'll_shown_b')];
      const game = await catalogGame({ name: 'Celeste', slug: 'celeste-ll' });
      const review = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Climb.' });
      const journey = await owner.site.post('/api/v1/journal/journeys', {
        game_id: game.id,
        title: 'Summit',
        started_at: new Date(Date.now() - 3_600_000).toISOString(),
      });
      expect(journey.status, journey.text).to.equal(201);
      const list = await thing(owner.account.id, 'list');
      for (const fan of fans) {
        await fan.site.put(`/api/v1/likes/review/${review.body.data.id}`);
        await fan.site.put(`/api/v1/likes/journey/${journey.body.data.id}`);
      }
      await fans[0].site.put(`/api/v1/likes/list/${list.id}`);

      const anyone = new SiteClient(app.client);
      expect((await anyone.get(`/api/v1/reviews/${review.body.data.id}`)).body.data.likes).to.equal(2);
      const feed = (await anyone.get('/api/v1/profiles/ll_shown_owner/reviews')).body.data as Array<
        Record<string, unknown>
      >;
      expect(feed.find((item) => item.review_id === review.body.data.id)).to.include({ likes: 2 });
      const activity = (await anyone.get('/api/v1/activity')).body.data as Array<Record<string, unknown>>;
      expect(activity.find((item) => item.journey_id === journey.body.data.id)).to.include({ likes: 2 });
      const journeys = (await anyone.get('/api/v1/profiles/ll_shown_owner/journeys')).body.data;
      expect(journeys[0]).to.include({ id: journey.body.data.id, likes: 2 });
      const lists = (await anyone.get('/api/v1/profiles/ll_shown_owner/lists')).body.data;
      expect(lists[0]).to.include({ likes: 1 });

      await fans[1].site.delete(`/api/v1/likes/review/${review.body.data.id}`);
      expect((await anyone.get(`/api/v1/reviews/${review.body.data.id}`)).body.data.likes).to.equal(1);
    });

    it('takes a deleted thing’s likes with it', async () => {
      const owner = await namedPerson(app.client, 'll_del_owner');
      const fan = await namedPerson(app.client, 'll_del_fan');
      const game = await catalogGame();
      const review = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Short-lived.' });
      const kept = await thing(owner.account.id, 'screenshot');
      await fan.site.put(`/api/v1/likes/review/${review.body.data.id}`);
      await fan.site.put(`/api/v1/likes/screenshot/${kept.id}`);
      expect((await owner.site.delete(`/api/v1/reviews/${review.body.data.id}`)).status).to.equal(200);
      expect(await db()('likes').where({ subject_id: review.body.data.id })).to.have.length(0);
      // Straight in the database, as any deletion is: a list's likes go too.
      const list = await thing(owner.account.id, 'list');
      await fan.site.put(`/api/v1/likes/list/${list.id}`);
      await db()('lists').where({ id: list.rowId }).delete();
      expect(await db()('likes').where({ subject_id: list.rowId })).to.have.length(0);
      const left = (await fan.site.get('/api/v1/likes')).body.data;
      expect(left.map((like: { id: string }) => like.id)).to.deep.equal([kept.id]);
    });
  });
});
