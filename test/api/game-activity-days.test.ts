// GET /games/{slug}/activity `totals.days`: distinct UTC calendar days a session covers, as the reader may
// see the sessions. A session across midnight is on both days; its end is exclusive.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { catalogGame, namedPerson, playSession } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /games/{slug}/activity totals.days', () => {
  useCleanDatabase();
  const app = useTestApp();

  async function totals(slug: string, reader?: SiteClient) {
    const res = await (reader ?? new SiteClient(app.client)).get(`/api/v1/games/${slug}/activity`);
    expect(res.status, res.text).to.equal(200);
    return res.body.totals as { sessions: number; minutes: number; days: number };
  }

  /** A closed session of `accountId` on the game between two instants. */
  async function session(accountId: string, gameId: number, from: string, to: string, fields = {}) {
    const minutes = Math.round((Date.parse(to) - Date.parse(from)) / 60000);
    await playSession(accountId, {
      game_id: gameId,
      started_at: new Date(from),
      ended_at: new Date(to),
      minutes,
      ...fields,
    });
  }

  it('counts both days of a session across midnight up to its end, and a day once however many sessions touch it', async () => {
    const game = await catalogGame();
    const ana = await namedPerson(app.client, 'days_ana');
    await session(ana.account.id, game.id, '2026-01-01T23:00Z', '2026-01-02T01:00Z');
    expect(await totals(game.slug)).to.deep.equal({ sessions: 1, minutes: 120, days: 2 });
    // Another session on the second day, and one of another person overlapping the first: no new day.
    const bia = await namedPerson(app.client, 'days_bia');
    await session(ana.account.id, game.id, '2026-01-02T10:00Z', '2026-01-02T11:00Z');
    await session(bia.account.id, game.id, '2026-01-01T22:30Z', '2026-01-02T00:30Z');
    expect(await totals(game.slug)).to.deep.equal({ sessions: 3, minutes: 300, days: 2 });
    // The end is exclusive: a session ending at 00:00 sharp played no part of the next day.
    await session(ana.account.id, game.id, '2026-02-01T23:00Z', '2026-02-02T00:00Z');
    expect((await totals(game.slug)).days).to.equal(3);
    // A session of no length still counts its day.
    await session(ana.account.id, game.id, '2026-02-05T12:00Z', '2026-02-05T12:00Z');
    expect((await totals(game.slug)).days).to.equal(4);
  });

  it('counts UTC days, whatever offset the times were given in', async () => {
    const game = await catalogGame();
    const ana = await namedPerson(app.client, 'days_utc');
    // 20:00 to 22:30 in São Paulo (UTC-3) is 23:00 to 01:30 UTC: one local evening, two UTC days.
    await session(ana.account.id, game.id, '2026-03-01T20:00-03:00', '2026-03-01T22:30-03:00');
    expect((await totals(game.slug)).days).to.equal(2);
  });

  it('counts only the days of sessions the reader may see, closed and not removed', async () => {
    const game = await catalogGame();
    const ana = await namedPerson(app.client, 'days_owner');
    await session(ana.account.id, game.id, '2026-04-01T10:00Z', '2026-04-01T11:00Z');
    await session(ana.account.id, game.id, '2026-04-03T23:00Z', '2026-04-04T01:00Z', { visibility: 'PRIVATE' });
    await session(ana.account.id, game.id, '2026-04-06T23:00Z', '2026-04-07T01:00Z', { removed_at: new Date() });
    await playSession(ana.account.id, { game_id: game.id, started_at: new Date(Date.now() - 60000), ended_at: null });
    expect(await totals(game.slug)).to.deep.equal({ sessions: 1, minutes: 60, days: 1 });
    // The author sees the private one too (both of its days); the removed one counts for nobody.
    expect(await totals(game.slug, ana.site)).to.deep.equal({ sessions: 2, minutes: 180, days: 3 });
  });
});
