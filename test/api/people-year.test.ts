// GET /profiles/{username}/year/{year}: one calendar year of a person, as the reader may see it.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { follow, libraryEntry, list, namedPerson, playSession, review, screenshot } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /profiles/{username}/year/{year}', () => {
  useCleanDatabase();
  const app = useTestApp();
  const at = (iso: string) => new Date(iso);

  it('gathers the year’s items by their own visibility and the library rows added or played in it', async () => {
    const owner = await namedPerson(app.client, 'year_owner');
    const follower = await namedPerson(app.client, 'year_follower');
    await follow(follower.account.id, owner.account.id);
    await playSession(owner.account.id, {
      game_id: 10,
      started_at: at('2024-03-01T10:00Z'),
      ended_at: at('2024-03-01T11:00Z'),
      minutes: 60,
    });
    await playSession(owner.account.id, {
      game_id: 11,
      started_at: at('2023-12-31T23:00Z'),
      ended_at: at('2024-01-01T00:30Z'),
      minutes: 90,
    });
    await review(owner.account.id, { game_id: 10, created_at: at('2024-05-01T00:00Z') });
    await review(owner.account.id, { game_id: 12, visibility: 'FOLLOWERS', created_at: at('2024-06-01T00:00Z') });
    await list(owner.account.id, { public_id: 'year-list', created_at: at('2024-07-01T00:00Z') });
    await screenshot(owner.account.id, { public_id: 'year-shot', created_at: at('2024-08-01T00:00Z') });
    await screenshot(owner.account.id, {
      public_id: 'removed',
      created_at: at('2024-08-02T00:00Z'),
      removed_at: new Date(),
    });
    // Library: added this year in a played state; finished this year; played by a session this year;
    // still marked playing and changed this year; added this year as a wish only; older and untouched.
    await libraryEntry(owner.account.id, {
      game_id: 20,
      status: 'PLAYING',
      created_at: at('2024-02-01T00:00Z'),
      updated_at: at('2024-02-01T00:00Z'),
    });
    await libraryEntry(owner.account.id, {
      game_id: 21,
      status: 'COMPLETED',
      created_at: at('2020-01-01T00:00Z'),
      updated_at: at('2020-01-01T00:00Z'),
      finished_at: at('2024-09-01T00:00Z'),
    });
    await libraryEntry(owner.account.id, {
      game_id: 10,
      status: 'BACKLOG',
      created_at: at('2019-01-01T00:00Z'),
      updated_at: at('2019-01-01T00:00Z'),
    });
    await libraryEntry(owner.account.id, {
      game_id: 22,
      playing: true,
      created_at: at('2018-01-01T00:00Z'),
      updated_at: at('2024-10-01T00:00Z'),
    });
    await libraryEntry(owner.account.id, {
      game_id: 23,
      status: 'WISHLIST',
      created_at: at('2024-11-01T00:00Z'),
      updated_at: at('2024-11-01T00:00Z'),
    });
    await libraryEntry(owner.account.id, {
      game_id: 24,
      status: 'COMPLETED',
      created_at: at('2019-01-01T00:00Z'),
      updated_at: at('2019-01-01T00:00Z'),
    });

    const visitor = (await new SiteClient(app.client).get('/api/v1/profiles/year_owner/year/2024')).body.data;
    expect(visitor.sessions.map((s: { game_id: number }) => s.game_id)).to.deep.equal([10]);
    expect(visitor.reviews).to.have.length(1);
    expect(visitor.lists.map((l: { id: string }) => l.id)).to.deep.equal(['year-list']);
    expect(visitor.screenshots.map((s: { id: string }) => s.id)).to.deep.equal(['year-shot']);
    expect(visitor.library).to.deep.equal([
      { game_id: 10, status: 'BACKLOG', playing: false, added: false, played: true },
      { game_id: 20, status: 'PLAYING', playing: false, added: true, played: true },
      { game_id: 21, status: 'COMPLETED', playing: false, added: false, played: true },
      { game_id: 22, status: null, playing: true, added: false, played: true },
      { game_id: 23, status: 'WISHLIST', playing: false, added: true, played: false },
    ]);
    expect(visitor.totals).to.deep.equal({
      sessions: 1,
      minutes: 60,
      reviews: 1,
      added: 2,
      played: 4,
      lists: 1,
      screenshots: 1,
      journeys: 0,
    });
    const seen = (await follower.site.get('/api/v1/profiles/year_owner/year/2024')).body.data;
    expect(seen.reviews).to.have.length(2);
  });

  it('marks a row played only by a session the reader may see: not a private or removed one', async () => {
    const owner = await namedPerson(app.client, 'year_sessions');
    const follower = await namedPerson(app.client, 'year_sessions_fan');
    await follow(follower.account.id, owner.account.id);
    // Three games in the library since long ago, untouched: only a 2024 session could make them played.
    for (const game_id of [30, 31, 32]) {
      await libraryEntry(owner.account.id, {
        game_id,
        status: 'BACKLOG',
        created_at: at('2019-01-01T00:00Z'),
        updated_at: at('2019-01-01T00:00Z'),
      });
    }
    const inYear = { started_at: at('2024-04-01T10:00Z'), ended_at: at('2024-04-01T11:00Z'), minutes: 60 };
    await playSession(owner.account.id, { ...inYear, game_id: 30, visibility: 'PRIVATE' });
    await playSession(owner.account.id, { ...inYear, game_id: 31, visibility: 'FOLLOWERS' });
    await playSession(owner.account.id, { ...inYear, game_id: 32, removed_at: new Date() });

    const played = async (reader: SiteClient) => {
      const res = await reader.get('/api/v1/profiles/year_sessions/year/2024');
      expect(res.status, res.text).to.equal(200);
      const rows = res.body.data.library as Array<{ game_id: number; played: boolean }>;
      expect(res.body.data.totals.played).to.equal(rows.filter((row) => row.played).length);
      return rows.filter((row) => row.played).map((row) => row.game_id);
    };
    expect(await played(new SiteClient(app.client))).to.deep.equal([]);
    expect(await played(follower.site)).to.deep.equal([31]);
    // The owner sees their private session; a removed one counts nowhere, for its author too.
    expect(await played(owner.site)).to.deep.equal([30, 31]);
  });

  it('takes years from 2000 through this one', async () => {
    await namedPerson(app.client, 'year_bounds');
    const thisYear = new Date().getUTCFullYear();
    expect((await app.client.get(`/api/v1/profiles/year_bounds/year/${thisYear}`)).status).to.equal(200);
    for (const year of ['1999', String(thisYear + 1), 'soon']) {
      const res = await app.client.get(`/api/v1/profiles/year_bounds/year/${year}`);
      expect(res.status, year).to.equal(400);
      expect(res.body.error.field, year).to.equal('year');
    }
  });
});
