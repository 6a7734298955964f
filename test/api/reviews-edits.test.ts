// PATCH and DELETE /reviews/{id}: the author's edits and deletes, their refusals, a removed review, and
// the feed items and comments that go with a deleted review.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { catalogGame, comment, namedPerson } from '../helpers/people.js';
import type { TestResponse } from '../helpers/http-client.js';
import { useTestApp } from '../helpers/test-app.js';

const MISSING_ID = '6a1f3c2e-9b8d-4e7f-a0c1-2d3e4f5a6b7c';

describe('reviews: the author’s edits and deletes', () => {
  useCleanDatabase();
  const app = useTestApp();

  const refusal = (res: TestResponse, field: string, reason: string, label = `${field} ${reason}`) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(400);
    expect(res.body.error, label).to.include({ code: 'invalid_request', field, reason });
  };
  const feedItems = (reviewId: string) => db()('activity_items').where({ kind: 'review', subject_id: reviewId });

  describe('PATCH /reviews/{id}', () => {
    async function written(username: string, fields: Record<string, unknown> = {}) {
      const author = await namedPerson(app.client, username);
      const game = await catalogGame({ name: `${username} game` });
      const res = await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'First take.', ...fields });
      expect(res.status, res.text).to.equal(201);
      return { author, game, review: res.body.data };
    }

    it('changes only the fields sent, moves updated_at, and moves the feed item with the game', async () => {
      const { author, review } = await written('patch_author', { rating: 70 });
      await db()('reviews')
        .where({ id: review.id })
        .update({ updated_at: new Date(Date.now() - 3_600_000) });
      const path = `/api/v1/reviews/${review.id}`;
      const res = await author.site.patch(path, { body: 'Second take.', contains_spoilers: true });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.include({
        id: review.id,
        body: 'Second take.',
        contains_spoilers: true,
        rating: 70,
        visibility: 'PUBLIC',
        created_at: review.created_at,
      });
      expect(Date.parse(res.body.data.updated_at)).to.be.greaterThan(Date.now() - 60_000);

      const cleared = await author.site.patch(path, { rating: null, visibility: 'FOLLOWERS' });
      expect(cleared.body.data).to.include({ rating: null, visibility: 'FOLLOWERS', body: 'Second take.' });
      expect((await feedItems(review.id))[0].visibility).to.equal('FOLLOWERS');

      const other = await catalogGame({ name: 'Other game', slug: 'other-game' });
      const moved = await author.site.patch(path, { game_id: other.id });
      expect(moved.status).to.equal(200);
      expect(moved.body.data).to.deep.include({
        game_id: other.id,
        game: { slug: 'other-game', name: 'Other game', cover_url: null },
      });
      const items = await feedItems(review.id);
      expect(items.map((item) => item.game_id)).to.deep.equal([other.id]);

      // Nothing sent: nothing changes.
      const before = (await author.site.get(path)).body.data;
      const empty = await author.site.patch(path, {});
      expect(empty.status).to.equal(200);
      expect(empty.body.data).to.deep.equal(before);
    });

    it('refuses bad fields, another account’s review, ids that name nothing, and keys without reviews.write', async () => {
      const { author, review } = await written('patch_refused');
      const path = `/api/v1/reviews/${review.id}`;
      const cases: Array<[unknown, string, string]> = [
        [{ body: '' }, 'body', 'too_short'],
        [{ body: 'x'.repeat(10_001) }, 'body', 'too_long'],
        [{ body: 'ding \u0007' }, 'body', 'bad_format'],
        [{ body: '   ' }, 'body', 'fields_invalid'],
        [{ rating: 101 }, 'rating', 'out_of_range'],
        [{ rating: -1 }, 'rating', 'out_of_range'],
        [{ rating: 1.5 }, 'rating', 'wrong_type'],
        [{ rating: '50' }, 'rating', 'wrong_type'],
        [{ visibility: 'FRIENDS' }, 'visibility', 'not_allowed'],
        [{ contains_spoilers: 1 }, 'contains_spoilers', 'wrong_type'],
        [{ game_id: 987_654_321 }, 'game_id', 'fields_invalid'],
        [{ game_id: null }, 'game_id', 'wrong_type'],
        [{ items: [] }, 'items', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) refusal(await author.site.patch(path, body), field, reason);
      const unchanged = await author.site.get(path);
      expect(unchanged.body.data).to.include({ body: 'First take.', rating: null, game_id: review.game_id });

      const stranger = await namedPerson(app.client, 'patch_stranger');
      for (const target of [path, `/api/v1/reviews/${MISSING_ID}`, '/api/v1/reviews/not-a-uuid']) {
        const res = await stranger.site.patch(target, { body: 'Mine now.' });
        expect(res.status, target).to.equal(404);
        expect(res.body.error).to.include({ code: 'not_found', reason: 'review_not_found' });
      }
      expect((await app.client.patch(path, { body: 'Anyone?' })).status).to.equal(401);

      const reader = await appWithKey(author.account.id, ['reviews.read']);
      const refused = await app.client.patch(
        path,
        { rating: 1 },
        { headers: { authorization: `Bearer ${reader.token}` } },
      );
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'reviews.write' });
      const writer = await appWithKey(author.account.id, ['reviews.write']);
      const changed = await app.client.patch(
        path,
        { rating: 1 },
        { headers: { authorization: `Bearer ${writer.token}` } },
      );
      expect(changed.status).to.equal(200);
      expect(changed.body.data.rating).to.equal(1);
    });

    it('refuses to change a review moderation removed (403 removed), which its author can still delete', async () => {
      const { author, review } = await written('patch_removed');
      await db()('reviews').where({ id: review.id }).update({ removed_at: new Date() });
      const path = `/api/v1/reviews/${review.id}`;
      const res = await author.site.patch(path, { body: 'Let me fix it.' });
      expect(res.status).to.equal(403);
      expect(res.body.error).to.include({ code: 'forbidden', reason: 'removed' });
      expect((await author.site.get(path)).body.data).to.include({ body: 'First take.', removed: true });
      const deleted = await author.site.delete(path);
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.deep.equal({ data: { id: review.id, deleted: true } });
      expect(await db()('reviews').where({ id: review.id })).to.have.length(0);
    });
  });

  describe('DELETE /reviews/{id}', () => {
    it('deletes the author’s review with its feed item and the comments on it', async () => {
      const author = await namedPerson(app.client, 'delete_author');
      const commenter = await namedPerson(app.client, 'delete_commenter');
      const game = await catalogGame();
      const kept = (await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'Kept.' })).body.data;
      const review = (await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'Gone soon.' })).body.data;
      const onIt = { target_kind: 'REVIEW', target_id: review.id, body: 'Agreed.' };
      await comment(commenter.account.id, author.account.id, onIt);
      await comment(commenter.account.id, author.account.id, { ...onIt, target_id: kept.id });
      const path = `/api/v1/reviews/${review.id}`;
      expect((await author.site.get(path)).body.data.comments).to.equal(1);

      const stranger = await namedPerson(app.client, 'delete_stranger');
      const refused = await stranger.site.delete(path);
      expect(refused.status).to.equal(404);
      expect(refused.body.error).to.include({ code: 'not_found', reason: 'review_not_found' });
      expect((await app.client.delete(path)).status).to.equal(401);
      const reader = await appWithKey(author.account.id, ['reviews.read']);
      const scoped = await app.client.delete(path, { headers: { authorization: `Bearer ${reader.token}` } });
      expect(scoped.status).to.equal(403);
      expect(scoped.body.error).to.include({ code: 'insufficient_scope', scope: 'reviews.write' });

      const res = await author.site.delete(path);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ data: { id: review.id, deleted: true } });
      expect(await feedItems(review.id)).to.have.length(0);
      expect(await db()('comments').where({ target_kind: 'REVIEW', target_id: review.id })).to.have.length(0);
      expect((await author.site.get(path)).status).to.equal(404);
      const feed = await author.site.get('/api/v1/profiles/delete_author/reviews');
      expect(feed.body.data.map((item: { body: string }) => item.body)).to.deep.equal(['Kept.']);
      // What else was there stays.
      expect(await feedItems(kept.id)).to.have.length(1);
      expect(await db()('comments').where({ target_id: kept.id })).to.have.length(1);

      for (const target of [path, `/api/v1/reviews/${MISSING_ID}`, '/api/v1/reviews/42']) {
        const again = await author.site.delete(target);
        expect(again.status, target).to.equal(404);
        expect(again.body.error.reason).to.equal('review_not_found');
      }
      const writer = await appWithKey(author.account.id, ['reviews.write']);
      const byKey = await app.client.delete(`/api/v1/reviews/${kept.id}`, {
        headers: { authorization: `Bearer ${writer.token}` },
      });
      expect(byKey.status).to.equal(200);
    });
  });
});
