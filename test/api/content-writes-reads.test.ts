// Reads stay true (issue 22): what one person writes through the API shows at once in the spec's reads of
// their year, stats, the public index and the search counts, in the catalog's ratings and stats after the
// next recompute, in the export; and leaves them with DELETE /account/data.
import { expect } from 'chai';
import { recomputeCatalogStats } from '../../shared/catalog/catalog-stats.js';
import { clearSearchCountCache } from '../../shared/catalog/search-counts.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { PASSWORD } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('what people write, in every read that counts it', () => {
  useCleanDatabase();
  const app = useTestApp();
  let writer: Awaited<ReturnType<typeof people.namedPerson>>;
  let game: { id: number; slug: string };
  let reviewId: string;
  const year = new Date().getUTCFullYear();
  const anonymous = () => new SiteClient(app.client);

  before(async () => {
    game = await people.catalogGame({ name: 'Counted Quest', slug: 'counted-quest', platform_ids: [6] });
    writer = await people.namedPerson(app.client, 'counted_writer');
    const site = writer.site;
    expect((await site.put(`/api/v1/library/${game.id}`, { status: 'COMPLETED', rating: 80 })).status).to.equal(201);
    const start = Date.now() - 3 * 3_600_000;
    const session = await site.post('/api/v1/journal/sessions', {
      game_id: game.id,
      started_at: new Date(start).toISOString(),
      ended_at: new Date(start + 90 * 60_000).toISOString(),
    });
    expect(session.status, session.text).to.equal(201);
    const journey = await site.post('/api/v1/journal/journeys', {
      game_id: game.id,
      title: 'First run',
      started_at: new Date(start - 60_000).toISOString(),
    });
    expect(journey.status, journey.text).to.equal(201);
    const review = await site.post('/api/v1/reviews', {
      game_id: game.id,
      body: 'Zanzibarite prose nobody else writes.',
      rating: 90,
    });
    expect(review.status, review.text).to.equal(201);
    reviewId = review.body.data.id;
  });

  it('shows in the year page and the stats at once', async () => {
    const yearPage = await anonymous().get(`/api/v1/profiles/counted_writer/year/${year}`);
    expect(yearPage.status, yearPage.text).to.equal(200);
    expect(yearPage.body.data.totals).to.include({ sessions: 1, minutes: 90, reviews: 1, journeys: 1, added: 1 });
    const stats = await anonymous().get('/api/v1/profiles/counted_writer/stats');
    expect(stats.body.data.totals).to.include({ sessions: 1, minutes: 90, games: 1 });
    const summary = await anonymous().get('/api/v1/profiles/counted_writer/summary');
    expect(summary.body.data).to.include({ library: 1, played: 1, reviews: 1, diary: 1, journeys: 1 });
  });

  it('shows in the public index and the search counts', async () => {
    const index = await anonymous().get('/api/v1/index');
    expect(index.body.data.reviews.map((r: { id: string }) => r.id)).to.include(reviewId);
    expect(index.body.data.entries.map((e: { game_id: number }) => e.game_id)).to.include(game.id);
    clearSearchCountCache();
    const counts = await anonymous().get('/api/v1/search/counts?q=zanzibarite');
    expect(counts.body.data.reviews).to.equal(1);
  });

  it('counts in the catalog’s ratings and stats after the recompute', async () => {
    await recomputeCatalogStats(db());
    const stats = await anonymous().get(`/api/v1/games/stats?ids=${game.id}`);
    expect(stats.status, stats.text).to.equal(200);
    expect(stats.body.data[0]).to.include({ library: 1, finished: 1, reviewing: 1, journeys: 1, sessions: 1 });
    const ratings = await anonymous().get(`/api/v1/games/ratings?ids=${game.id}`);
    expect(ratings.body.data[0]).to.include({ rating: 80, rating_count: 1 });
  });

  it('is in the export', async () => {
    const exported = await writer.site.get('/api/v1/account/export');
    expect(exported.status).to.equal(200);
    const data = exported.body.data;
    expect(data.library.map((e: { game_id: number }) => e.game_id)).to.deep.equal([game.id]);
    expect(data.reviews.map((r: { id: string }) => r.id)).to.deep.equal([reviewId]);
    expect(data.sessions).to.have.length(1);
    expect(data.journeys).to.have.length(1);
  });

  it('leaves every read with DELETE /account/data, category by category', async () => {
    const site = writer.site;
    const remove = async (category: string) => {
      const res = await site.delete(`/api/v1/account/data?category=${category}`, { body: { password: PASSWORD } });
      expect(res.status, res.text).to.equal(200);
    };
    for (const category of ['reviews', 'journeys', 'library']) await remove(category);
    // Play sessions are the `sessions` category's, not the library's.
    const kept = await anonymous().get('/api/v1/profiles/counted_writer/summary');
    expect(kept.body.data).to.include({ library: 0, diary: 1 });
    await remove('sessions');
    const summary = await anonymous().get('/api/v1/profiles/counted_writer/summary');
    expect(summary.body.data).to.include({ library: 0, reviews: 0, diary: 0, journeys: 0 });
    const feed = await anonymous().get('/api/v1/activity?profile=counted_writer');
    expect(feed.body.data).to.deep.equal([]);
    expect((await anonymous().get(`/api/v1/reviews/${reviewId}`)).status).to.equal(404);
    await recomputeCatalogStats(db());
    const stats = await anonymous().get(`/api/v1/games/stats?ids=${game.id}`);
    expect(stats.body.data[0]).to.include({ library: 0, reviewing: 0, journeys: 0, sessions: 0 });
  });
});
