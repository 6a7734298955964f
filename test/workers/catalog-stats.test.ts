// catalog.stats: the service's own activity counted per game, the aggregates search sorts by, runs that
// are safe to repeat and to overlap, and GET /games/stats reading the result.
import { expect } from 'chai';
import { PRIOR_VOTES, recomputeCatalogStats } from '../../shared/catalog/catalog-stats.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

describe('catalog.stats', () => {
  useCleanDatabase();
  const app = useTestApp();
  let active: number;
  let quiet: number;
  const people: string[] = [];

  before(async () => {
    [{ id: active }, { id: quiet }] = await db()('games')
      .insert([
        { slug: 'active-game', name: 'Active Game', upstream_popularity: 100, popularity: 100 },
        { slug: 'quiet-game', name: 'Quiet Game', upstream_popularity: 7, popularity: 7, rating: 77, rating_count: 3 },
      ])
      .returning('id');
    for (let i = 0; i < 3; i += 1) people.push((await buildAccount()).account.id);
    const [a, b, c] = people;
    await db()('library_entries').insert([
      { account_id: a, game_id: active, status: 'COMPLETED', playing: true, rating: 90, liked: true },
      { account_id: b, game_id: active, status: 'WISHLIST', rating: 60 },
      { account_id: c, game_id: active, wishlist: true },
    ]);
    await db()('reviews').insert([
      { account_id: a, game_id: active, body: 'great', visibility: 'PUBLIC' },
      { account_id: a, game_id: active, body: 'again', visibility: 'PRIVATE' },
    ]);
    await db()('play_sessions').insert([
      { account_id: a, game_id: active, started_at: new Date(), ended_at: new Date(), minutes: 0 },
      { account_id: b, game_id: active, started_at: new Date() },
    ]);
    await db()('journeys').insert({ account_id: c, game_id: active, title: 'run' });
    await db()('activity_items').insert([
      { account_id: a, kind: 'review', subject_id: a, game_id: active },
      {
        account_id: b,
        kind: 'entry',
        subject_id: b,
        game_id: active,
        created_at: db().raw("now() - interval '30 days'"),
      },
    ]);
  });

  it('counts distinct people per kind of activity and sets the aggregates of active games only', async () => {
    const report = await recomputeCatalogStats(db());
    expect(report.games).to.equal(1);
    const stats = await db()('game_stats').where({ game_id: active }).first();
    expect(stats).to.include({
      library: 3,
      playing: 1,
      finished: 1,
      wishlisted: 2,
      favorited: 1,
      reviewing: 1,
      journeys: 1,
      sessions: 2,
      recent_activity: 1,
      rating_count: 2,
      review_count: 1,
    });
    const game = await db()('games').where({ id: active }).first();
    const mean = 75; // the site's mean rating: (90 + 60) / 2
    expect(game.rating).to.equal(75);
    expect(game.weighted_rating).to.be.closeTo((2 * 75 + PRIOR_VOTES * mean) / (2 + PRIOR_VOTES), 0.01);
    expect(game).to.include({ rating_count: 2, review_count: 1, library_count: 3, trending: 1 });
    // Upstream's 100, plus 3 libraries, 2 x 1 reviewer, 2 session loggers and 1 journey.
    expect(game.popularity).to.equal(108);
    const untouched = await db()('games').where({ id: quiet }).first();
    expect(untouched).to.include({ rating: 77, rating_count: 3, popularity: 7 });
  });

  it('changes nothing when run again, even two at once', async () => {
    const [first, second] = await Promise.all([recomputeCatalogStats(db()), recomputeCatalogStats(db())]);
    expect(first.changed + second.changed).to.equal(0);
    expect(await db()('game_stats')).to.have.length(1);
  });

  it('takes a game back to its upstream popularity when its activity goes, then forgets it', async () => {
    await db()('library_entries').where({ game_id: active }).delete();
    await db()('reviews').where({ game_id: active }).delete();
    await db()('play_sessions').where({ game_id: active }).delete();
    await db()('journeys').where({ game_id: active }).delete();
    await db()('activity_items').where({ game_id: active }).delete();
    await recomputeCatalogStats(db());
    const game = await db()('games').where({ id: active }).first();
    expect(game).to.include({ popularity: 100, rating: null, rating_count: 0, library_count: 0, trending: 0 });
    expect(await db()('game_stats')).to.have.length(0);
  });

  it('answers GET /games/stats for 1 to 200 ids, zeros for games without activity', async () => {
    await db()('library_entries').insert({ account_id: people[0], game_id: active, status: 'PLAYING' });
    await recomputeCatalogStats(db());
    const res = await app.client.get(`/api/v1/games/stats?ids=${active},${quiet},424242`);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal([
      {
        id: active,
        library: 1,
        playing: 1,
        finished: 0,
        wishlisted: 0,
        favorited: 0,
        reviewing: 0,
        journeys: 0,
        sessions: 0,
        popularity: 101,
        trending: 0,
      },
      {
        id: quiet,
        library: 0,
        playing: 0,
        finished: 0,
        wishlisted: 0,
        favorited: 0,
        reviewing: 0,
        journeys: 0,
        sessions: 0,
        popularity: 7,
        trending: 0,
      },
    ]);
    for (const query of ['', '?ids=0', `?ids=${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}`]) {
      const refused = await app.client.get(`/api/v1/games/stats${query}`);
      expect(refused.status, query).to.equal(400);
      expect(refused.body.error.field).to.equal('ids');
    }
  });
});
