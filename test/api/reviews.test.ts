// POST /reviews: the author's writes, their refusals, the daily cap of 50 in a rolling day (taken in the
// write's transaction, so parallel writes cannot pass it and a refused write uses nothing), the feed item
// beside each review, and the scopes. Edits and deletes: reviews-edits.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { ageOldestRollingUse, rollingUsesOf, seedRollingUses } from '../helpers/rolling-uses.js';
import { catalogGame, namedPerson } from '../helpers/people.js';
import type { TestResponse } from '../helpers/http-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('reviews: the author’s writes', () => {
  useCleanDatabase();
  const app = useTestApp();

  const refusal = (res: TestResponse, field: string, reason: string, label = `${field} ${reason}`) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(400);
    expect(res.body.error, label).to.include({ code: 'invalid_request', field, reason });
  };
  const usesOf = (accountId: string) => rollingUsesOf(`reviews:${accountId}`);
  const seedUses = (accountId: string, count: number, secondsAgo = 60) =>
    seedRollingUses(`reviews:${accountId}`, count, secondsAgo);
  const feedItems = (reviewId: string) => db()('activity_items').where({ kind: 'review', subject_id: reviewId });

  describe('POST /reviews', () => {
    it('answers 201 with the review, its defaults and its game, and writes its feed item', async () => {
      const author = await namedPerson(app.client, 'review_author');
      const game = await catalogGame({ name: 'Outer Wilds', slug: 'outer-wilds' });
      const res = await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'A solar system in a box.' });
      expect(res.status, res.text).to.equal(201);
      const review = res.body.data;
      expect(review).to.have.keys([
        'id',
        'username',
        'game_id',
        'game',
        'body',
        'rating',
        'contains_spoilers',
        'visibility',
        'likes',
        'comments',
        'awards',
        'removed',
        'created_at',
        'updated_at',
      ]);
      expect(review).to.deep.include({
        username: 'review_author',
        game_id: game.id,
        game: { slug: 'outer-wilds', name: 'Outer Wilds', cover_url: null },
        body: 'A solar system in a box.',
        rating: null,
        contains_spoilers: false,
        visibility: 'PUBLIC',
        likes: 0,
        comments: 0,
        awards: {},
        removed: false,
      });
      expect(review.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(review.updated_at).to.equal(review.created_at);
      const items = await feedItems(review.id);
      expect(items).to.have.length(1);
      expect(items[0]).to.include({ account_id: author.account.id, game_id: game.id, visibility: 'PUBLIC' });
      expect(await usesOf(author.account.id)).to.equal(1);

      // A replay: the same game again is a second review, with every field given.
      const again = await author.site.post('/api/v1/reviews', {
        game_id: game.id,
        body: 'Second loop.\nStill great.',
        rating: 100,
        contains_spoilers: true,
        visibility: 'FOLLOWERS',
      });
      expect(again.status, again.text).to.equal(201);
      expect(again.body.data).to.include({ rating: 100, contains_spoilers: true, visibility: 'FOLLOWERS' });
      expect(again.body.data.id).not.to.equal(review.id);
      expect((await feedItems(again.body.data.id))[0]).to.include({ visibility: 'FOLLOWERS' });
    });

    it('refuses what the schema sees with validation’s reasons and what the data sees with fields_invalid', async () => {
      const author = await namedPerson(app.client, 'review_refused');
      const game = await catalogGame();
      const post = (body: unknown) => author.site.post('/api/v1/reviews', body);
      const ok = { game_id: game.id, body: 'Fine.' };
      const cases: Array<[unknown, string, string]> = [
        [{ body: 'No game.' }, 'game_id', 'missing'],
        [{ game_id: game.id }, 'body', 'missing'],
        [{ ...ok, body: '' }, 'body', 'too_short'],
        [{ ...ok, body: 'x'.repeat(10_001) }, 'body', 'too_long'],
        [{ ...ok, body: '😀'.repeat(10_001) }, 'body', 'too_long'],
        [{ ...ok, body: 42 }, 'body', 'wrong_type'],
        [{ ...ok, body: 'bell \u0007 rings' }, 'body', 'bad_format'],
        [{ ...ok, body: 'escape \u001b' }, 'body', 'bad_format'],
        [{ ...ok, body: 'nul \u0000' }, 'body', 'bad_format'],
        [{ ...ok, rating: 101 }, 'rating', 'out_of_range'],
        [{ ...ok, rating: -1 }, 'rating', 'out_of_range'],
        [{ ...ok, rating: 1.5 }, 'rating', 'wrong_type'],
        [{ ...ok, rating: '50' }, 'rating', 'wrong_type'],
        [{ ...ok, visibility: 'SECRET' }, 'visibility', 'not_allowed'],
        [{ ...ok, visibility: 'public' }, 'visibility', 'not_allowed'],
        [{ ...ok, visibility: null }, 'visibility', 'wrong_type'],
        [{ ...ok, contains_spoilers: 'yes' }, 'contains_spoilers', 'wrong_type'],
        [{ ...ok, game_id: String(game.id) }, 'game_id', 'wrong_type'],
        [{ ...ok, game_id: 0 }, 'game_id', 'out_of_range'],
        [{ ...ok, title: 'Not a field' }, 'title', 'unknown_field'],
        [{ ...ok, game_id: 987_654_321 }, 'game_id', 'fields_invalid'],
        [{ ...ok, body: ' \n\t\r\u00a0\u3000 ' }, 'body', 'fields_invalid'],
      ];
      for (const [body, field, reason] of cases)
        refusal(await post(body), field, reason, JSON.stringify(body).slice(0, 60));
      expect(await db()('reviews').where({ account_id: author.account.id })).to.have.length(0);
      // Refused before or inside the transaction: no use of the daily cap is left behind.
      expect(await usesOf(author.account.id)).to.equal(0);
    });

    it('counts characters, not UTF-16 units, and keeps tabs and line breaks', async () => {
      const author = await namedPerson(app.client, 'review_long');
      const game = await catalogGame();
      const emoji = await author.site.post('/api/v1/reviews', { game_id: game.id, body: '😀'.repeat(10_000) });
      expect(emoji.status, emoji.text).to.equal(201);
      expect([...emoji.body.data.body]).to.have.length(10_000);
      const plain = await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'y'.repeat(10_000) });
      expect(plain.status).to.equal(201);
      const one = await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'z' });
      expect(one.status).to.equal(201);
      const body = 'Line one\r\nline two\n\tindented';
      const kept = await author.site.post('/api/v1/reviews', { game_id: game.id, body, rating: 0 });
      expect(kept.status).to.equal(201);
      expect(kept.body.data).to.include({ body, rating: 0 });
      const read = await author.site.get(`/api/v1/reviews/${kept.body.data.id}`);
      expect(read.body.data.body).to.equal(body);
    });

    it('needs a caller, and a key holding reviews.write', async () => {
      const author = await namedPerson(app.client, 'review_keys');
      const game = await catalogGame();
      const body = { game_id: game.id, body: 'By key.' };
      const anonymous = await app.client.post('/api/v1/reviews', body);
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.error.code).to.equal('unauthorized');

      const reader = await appWithKey(author.account.id, ['reviews.read']);
      const refused = await app.client.post('/api/v1/reviews', body, {
        headers: { authorization: `Bearer ${reader.token}` },
      });
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'reviews.write' });

      const writer = await appWithKey(author.account.id, ['reviews.write']);
      const created = await app.client.post('/api/v1/reviews', body, {
        headers: { authorization: `Bearer ${writer.token}` },
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data).to.include({ username: 'review_keys', body: 'By key.' });
      expect(created.headers.get('x-ratelimit-resource')).to.equal('write');
      expect(created.headers.get('cache-control')).to.equal('no-store');
    });

    it('replays a review sent again with its Idempotency-Key: one review, one use of the cap', async () => {
      const author = await namedPerson(app.client, 'review_replay');
      const game = await catalogGame();
      const body = { game_id: game.id, body: 'Sent twice.' };
      const headers = { 'idempotency-key': 'review-replay-1' };
      const first = await author.site.post('/api/v1/reviews', body, { headers });
      const again = await author.site.post('/api/v1/reviews', body, { headers });
      expect(first.status).to.equal(201);
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(await db()('reviews').where({ account_id: author.account.id })).to.have.length(1);
      expect(await usesOf(author.account.id)).to.equal(1);
    });

    it('takes 50 reviews in a rolling day, then 429 with retry_after until the oldest leaves the window', async function () {
      this.timeout(60_000);
      const author = await namedPerson(app.client, 'review_cap');
      const game = await catalogGame();
      for (let i = 0; i < 50; i += 1) {
        const res = await author.site.post('/api/v1/reviews', { game_id: game.id, body: `Review ${i}` });
        expect(res.status, `review ${i}: ${res.text}`).to.equal(201);
      }
      const refused = await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'One too many.' });
      expect(refused.status).to.equal(429);
      expect(refused.body.error.code).to.equal('rate_limited');
      expect(refused.body.error.retry_after).to.be.within(86_000, 86_400);
      expect(refused.headers.get('retry-after')).to.equal(String(refused.body.error.retry_after));
      expect(await db()('reviews').where({ account_id: author.account.id })).to.have.length(50);
      // Deleting gives nothing back: the cap is on writing.
      const first = await db()('reviews').where({ account_id: author.account.id }).first('id');
      expect((await author.site.delete(`/api/v1/reviews/${first.id}`)).status).to.equal(200);
      expect((await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'Still capped.' })).status).to.equal(
        429,
      );

      // The oldest use leaves the window: one more passes, and the answer before said how long until then.
      await ageOldestRollingUse(`reviews:${author.account.id}`, 86_401);
      const freed = await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'A new day.' });
      expect(freed.status, freed.text).to.equal(201);
      const again = await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'Capped again.' });
      expect(again.status).to.equal(429);
      // Another account has its own 50.
      const other = await namedPerson(app.client, 'review_cap_other');
      expect((await other.site.post('/api/v1/reviews', { game_id: game.id, body: 'Mine.' })).status).to.equal(201);
    });

    it('lets exactly the free uses through when requests race for them', async function () {
      this.timeout(30_000);
      const author = await namedPerson(app.client, 'review_race');
      const game = await catalogGame();
      await seedUses(author.account.id, 45);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          author.site.post('/api/v1/reviews', { game_id: game.id, body: `Race ${i}` }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).to.deep.equal([201, 201, 201, 201, 201, 429, 429, 429, 429, 429]);
      expect(await db()('reviews').where({ account_id: author.account.id })).to.have.length(5);
      expect(await usesOf(author.account.id)).to.equal(50);
    });

    it('gives back the use of a review refused inside its transaction', async () => {
      const author = await namedPerson(app.client, 'review_rollback');
      const game = await catalogGame();
      await seedUses(author.account.id, 49);
      const unknown = await author.site.post('/api/v1/reviews', { game_id: 987_654_320, body: 'No such game.' });
      refusal(unknown, 'game_id', 'fields_invalid');
      expect(await usesOf(author.account.id)).to.equal(49);
      expect(await db()('activity_items').where({ account_id: author.account.id })).to.have.length(0);
      expect((await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'The 50th.' })).status).to.equal(201);
      expect((await author.site.post('/api/v1/reviews', { game_id: game.id, body: 'The 51st.' })).status).to.equal(429);
    });
  });
});
