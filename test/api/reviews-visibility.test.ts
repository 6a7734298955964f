// GET /reviews/{id}: who sees one review, as the feed decides it (its own visibility, blocks either way, the
// author always), a review moderation removed, the cache headers of each answer, and how the feed follows a
// review whose visibility its author changes.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { catalogGame, follow, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { readersOf, READERS, SEES, VISIBILITIES, type Visibility } from '../helpers/readers.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /reviews/{id}: who sees a review', () => {
  useCleanDatabase();
  const app = useTestApp();

  const notFound = (res: TestResponse, label: string) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(404);
    expect(res.body.error, label).to.include({ code: 'not_found', reason: 'review_not_found' });
  };
  const bodies = (res: TestResponse) => (res.body.data as Array<{ body: string }>).map((item) => item.body).sort();

  it('shows each review to the readers its visibility and blocks allow, as the person’s feed does', async () => {
    // A private library changes nothing: a review shows by its own visibility.
    const { owner, sites } = await readersOf(app.client, 'rv');
    const game = await catalogGame({ name: 'Hades', slug: 'hades' });
    const ids = {} as Record<Visibility, string>;
    for (const visibility of VISIBILITIES) {
      const res = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: visibility, visibility });
      expect(res.status, res.text).to.equal(201);
      ids[visibility] = res.body.data.id;
    }

    for (const reader of READERS) {
      for (const visibility of VISIBILITIES) {
        const res = await sites[reader].get(`/api/v1/reviews/${ids[visibility]}`);
        const label = `${reader} reading ${visibility}`;
        if (!SEES[visibility].includes(reader)) {
          notFound(res, label);
          continue;
        }
        expect(res.status, `${label}: ${res.text}`).to.equal(200);
        expect(res.body.data, label).to.deep.include({
          id: ids[visibility],
          username: 'rv_owner',
          body: visibility,
          visibility,
          removed: false,
          game: { slug: 'hades', name: 'Hades', cover_url: null },
        });
        // Kept by the browser only when it is the same for everyone who may ask.
        const keepable = visibility === 'PUBLIC' && reader === 'anonymous';
        expect(res.headers.get('cache-control'), label).to.equal(keepable ? 'private, no-cache' : 'private, no-store');
        expect(res.headers.get('etag'), label).to.match(/^W\/"/);
      }
      // The person's feed shows the same reader the same reviews (or is 404 across a block).
      const feed = await sites[reader].get('/api/v1/profiles/rv_owner/reviews');
      if (reader === 'blocked' || reader === 'blocker') expect(feed.status, reader).to.equal(404);
      else expect(bodies(feed), reader).to.deep.equal(VISIBILITIES.filter((v) => SEES[v].includes(reader)).sort());
    }
  });

  it('shows a review moderation removed to its author alone, with removed: true', async () => {
    const owner = await namedPerson(app.client, 'rm_owner');
    const follower = await namedPerson(app.client, 'rm_follower');
    const stranger = await namedPerson(app.client, 'rm_stranger');
    await follow(follower.account.id, owner.account.id);
    const game = await catalogGame();
    const created = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Too harsh.' });
    const path = `/api/v1/reviews/${created.body.data.id}`;
    await db()('reviews').where({ id: created.body.data.id }).update({ removed_at: new Date() });

    const own = await owner.site.get(path);
    expect(own.status).to.equal(200);
    expect(own.body.data).to.include({ body: 'Too harsh.', removed: true, visibility: 'PUBLIC' });
    expect(own.headers.get('cache-control')).to.equal('private, no-store');
    for (const [label, site] of [
      ['follower', follower.site],
      ['stranger', stranger.site],
      ['anonymous', new SiteClient(app.client)],
    ] as const) {
      notFound(await site.get(path), label);
    }
    // Its feed item is hidden from everyone, its author included.
    for (const site of [owner.site, stranger.site]) {
      expect((await site.get('/api/v1/profiles/rm_owner/reviews')).body.data).to.deep.equal([]);
    }

    const patched = await owner.site.patch(path, { visibility: 'PRIVATE' });
    expect(patched.status).to.equal(403);
    expect(patched.body.error).to.include({ code: 'forbidden', reason: 'removed' });
    expect((await owner.site.delete(path)).status).to.equal(200);
    notFound(await owner.site.get(path), 'after its deletion');
  });

  it('shows a suspended author’s review as their feed does; the shared feed leaves it out', async () => {
    const owner = await namedPerson(app.client, 'susp_owner');
    const stranger = await namedPerson(app.client, 'susp_stranger');
    const game = await catalogGame({ slug: 'suspended-game' });
    const created = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Written before.' });
    const shared = '/api/v1/activity?game=suspended-game';
    expect(bodies(await stranger.site.get(shared))).to.deep.equal(['Written before.']);
    await db()('infractions').insert({
      account_id: owner.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 7 * 86_400_000),
    });
    const res = await stranger.site.get(`/api/v1/reviews/${created.body.data.id}`);
    expect(res.status).to.equal(200);
    expect(bodies(await stranger.site.get('/api/v1/profiles/susp_owner/reviews'))).to.deep.equal(['Written before.']);
    expect(bodies(await stranger.site.get(shared))).to.deep.equal([]);
    // A suspended author reads but does not write.
    const refused = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Written during.' });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.reason).to.equal('suspended');
  });

  it('moves the review in and out of what a stranger’s feed shows when its author changes the visibility', async () => {
    const owner = await namedPerson(app.client, 'feed_owner');
    const follower = await namedPerson(app.client, 'feed_follower');
    const stranger = await namedPerson(app.client, 'feed_stranger');
    await follow(follower.account.id, owner.account.id);
    const game = await catalogGame({ slug: 'feed-game' });
    const created = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Visible, then not.' });
    const path = `/api/v1/reviews/${created.body.data.id}`;
    const feeds = [
      '/api/v1/activity?game=feed-game',
      '/api/v1/profiles/feed_owner/reviews',
      '/api/v1/games/feed-game/activity',
    ];
    const seenBy = async (site: SiteClient) => {
      const found = [];
      for (const feed of feeds) found.push(bodies(await site.get(feed)).length);
      found.push((await site.get(path)).status);
      return found;
    };
    const anonymous = new SiteClient(app.client);
    expect(await seenBy(stranger.site)).to.deep.equal([1, 1, 1, 200]);
    expect(await seenBy(anonymous)).to.deep.equal([1, 1, 1, 200]);

    expect((await owner.site.patch(path, { visibility: 'FOLLOWERS' })).status).to.equal(200);
    expect(await seenBy(stranger.site)).to.deep.equal([0, 0, 0, 404]);
    expect(await seenBy(anonymous)).to.deep.equal([0, 0, 0, 404]);
    expect(await seenBy(follower.site)).to.deep.equal([1, 1, 1, 200]);

    expect((await owner.site.patch(path, { visibility: 'PRIVATE' })).status).to.equal(200);
    expect(await seenBy(follower.site)).to.deep.equal([0, 0, 0, 404]);
    expect(await seenBy(owner.site)).to.deep.equal([1, 1, 1, 200]);

    expect((await owner.site.patch(path, { visibility: 'PUBLIC' })).status).to.equal(200);
    expect(await seenBy(stranger.site)).to.deep.equal([1, 1, 1, 200]);
  });

  it('reads with a key holding reviews.read, refuses other keys, and is 404 for ids that name nothing', async () => {
    const owner = await namedPerson(app.client, 'key_owner');
    const game = await catalogGame();
    const created = await owner.site.post('/api/v1/reviews', {
      game_id: game.id,
      body: 'Mine.',
      visibility: 'PRIVATE',
    });
    const path = `/api/v1/reviews/${created.body.data.id}`;
    const reader = await appWithKey(owner.account.id, ['reviews.read']);
    const own = await app.client.get(path, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(own.status).to.equal(200);
    expect(own.body.data.visibility).to.equal('PRIVATE');
    expect(own.headers.get('x-ratelimit-resource')).to.equal('read');

    const other = await appWithKey(owner.account.id, ['profile.read']);
    const refused = await app.client.get(path, { headers: { authorization: `Bearer ${other.token}` } });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'reviews.read' });

    for (const id of ['not-a-uuid', '12345', '6a1f3c2e-9b8d-4e7f-a0c1-2d3e4f5a6b7c']) {
      notFound(await app.client.get(`/api/v1/reviews/${id}`), id);
      notFound(await owner.site.get(`/api/v1/reviews/${id}`), id);
    }
    // A game the catalog lost: the review stays, without its card.
    await db()('reviews').where({ id: created.body.data.id }).update({ game_id: 987_654_000 });
    const lost = await owner.site.get(path);
    expect(lost.body.data).to.include({ game_id: 987_654_000, game: null });
  });
});
