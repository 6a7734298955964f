// GET /profiles/{username}/stats: play statistics from what the reader may see.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { block, follow, libraryEntry, namedPerson, playSession } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';
import { db } from '../../shared/platform/db/knex.js';

describe('GET /profiles/{username}/stats', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('counts closed visible sessions, days once each, per year and weekday, most played and taste', async () => {
    const owner = await namedPerson(app.client, 'stats_owner', 'FOLLOWERS');
    const follower = await namedPerson(app.client, 'stats_follower');
    await follow(follower.account.id, owner.account.id);
    const at = (iso: string) => new Date(iso);
    // Monday 2025-12-29 twice (overlapping), Tuesday 2026-01-06, one followers-only, one running.
    await playSession(owner.account.id, {
      game_id: 1,
      started_at: at('2025-12-29T10:00Z'),
      ended_at: at('2025-12-29T11:00Z'),
      minutes: 60,
    });
    await playSession(owner.account.id, {
      game_id: 2,
      started_at: at('2025-12-29T10:30Z'),
      ended_at: at('2025-12-29T11:00Z'),
      minutes: 30,
    });
    await playSession(owner.account.id, {
      game_id: 1,
      started_at: at('2026-01-06T20:00Z'),
      ended_at: at('2026-01-06T22:00Z'),
      minutes: 120,
    });
    await playSession(owner.account.id, {
      game_id: 3,
      visibility: 'FOLLOWERS',
      started_at: at('2026-01-07T20:00Z'),
      ended_at: at('2026-01-07T20:45Z'),
      minutes: 45,
    });
    await playSession(owner.account.id, { game_id: 4, started_at: at('2026-01-08T20:00Z'), ended_at: null });
    await libraryEntry(owner.account.id, { rating: 95 });
    await libraryEntry(owner.account.id, { rating: 100 });
    await libraryEntry(owner.account.id, { rating: 42 });
    await db()('library_copies').insert([
      { account_id: owner.account.id, game_id: 1, platform_id: 6 },
      { account_id: owner.account.id, game_id: 2, platform_id: 6 },
    ]);

    const stranger = (await new SiteClient(app.client).get('/api/v1/profiles/stats_owner/stats')).body.data;
    expect(stranger.totals).to.deep.equal({ sessions: 3, minutes: 210, days: 2, games: 2 });
    expect(stranger.per_year).to.deep.equal([
      { year: 2025, sessions: 2, minutes: 90 },
      { year: 2026, sessions: 1, minutes: 120 },
    ]);
    expect(stranger.days_of_week.slice(0, 3)).to.deep.equal([
      { day: 1, minutes: 90 },
      { day: 2, minutes: 120 },
      { day: 3, minutes: 0 },
    ]);
    expect(stranger.most_played).to.deep.equal([
      { game_id: 1, minutes: 180, sessions: 2 },
      { game_id: 2, minutes: 30, sessions: 1 },
    ]);
    expect(stranger.taste).to.deep.equal([
      { game_id: 1, minutes: 180 },
      { game_id: 2, minutes: 30 },
    ]);
    // A followers-only library: nothing of it to a stranger.
    expect(stranger.copy_platforms).to.deep.equal([]);
    expect(stranger.rating_distribution.every((b: { count: number }) => b.count === 0)).to.equal(true);

    const seen = (await follower.site.get('/api/v1/profiles/stats_owner/stats')).body.data;
    expect(seen.totals).to.deep.equal({ sessions: 4, minutes: 255, days: 3, games: 3 });
    expect(seen.copy_platforms).to.deep.equal([{ platform_id: 6, copies: 2 }]);
    expect(seen.rating_distribution[9]).to.deep.equal({ from: 90, count: 2 });
    expect(seen.rating_distribution[4]).to.deep.equal({ from: 40, count: 1 });
  });

  it('counts every UTC day a session covers: across midnight both, ending at midnight sharp only its own', async () => {
    const owner = await namedPerson(app.client, 'stats_midnight');
    const at = (iso: string) => new Date(iso);
    await playSession(owner.account.id, {
      game_id: 1,
      started_at: at('2026-02-01T23:00Z'),
      ended_at: at('2026-02-02T01:00Z'),
      minutes: 120,
    });
    await playSession(owner.account.id, {
      game_id: 2,
      started_at: at('2026-02-05T22:00Z'),
      ended_at: at('2026-02-06T00:00Z'),
      minutes: 120,
    });
    // The first session's first day again: counted once. Counting start days only would give 2.
    await playSession(owner.account.id, {
      game_id: 2,
      started_at: at('2026-02-01T10:00Z'),
      ended_at: at('2026-02-01T10:30Z'),
      minutes: 30,
    });
    const stats = (await new SiteClient(app.client).get('/api/v1/profiles/stats_midnight/stats')).body.data;
    expect(stats.totals).to.deep.equal({ sessions: 3, minutes: 270, days: 3, games: 2 });
  });

  it('is 404 across a block', async () => {
    const owner = await namedPerson(app.client, 'stats_blocker');
    const other = await namedPerson(app.client, 'stats_blocked');
    await block(owner.account.id, other.account.id);
    expect((await other.site.get('/api/v1/profiles/stats_blocker/stats')).status).to.equal(404);
  });
});
