// GET and DELETE /history (DECISIONS: History; Cursor reads): the items as the lists show their things,
// newest first by cursor, one kind or both; a person behind a block either way and a game the catalog lost
// are left out; clearing all or one kind, and the deletion category `views`; refusals and scopes.
// Recording: history.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { PASSWORD } from '../helpers/factories.js';
import { recorded, setViewedAt, view, type Viewed } from '../helpers/history.js';
import { block, catalogGame, namedPerson, type NamedPerson } from '../helpers/people.js';
import { keyed, refused } from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

interface Item {
  kind: 'game' | 'profile';
  viewed_at: string;
  game: { id: number } | null;
  profile: { username: string } | null;
}

/** An item as `game:<id>` or `profile:<username>`, to compare pages at a glance. */
const label = (item: Item) => (item.kind === 'game' ? `game:${item.game!.id}` : `profile:${item.profile!.username}`);

describe('history: reading and clearing', () => {
  useCleanDatabase();
  const app = useTestApp();

  const labels = async (person: NamedPerson, query = '') => {
    const res = await person.site.get(`/api/v1/history${query}`);
    expect(res.status, res.text).to.equal(200);
    return (res.body.data as Item[]).map(label);
  };

  /** Views written straight in the database, a microsecond apart, the first the oldest. */
  async function seeded(reader: NamedPerson, things: Viewed[]) {
    await db()('view_history').insert(
      things.map((thing) => ({
        account_id: reader.account.id,
        game_id: 'game' in thing ? thing.game : null,
        profile_id: 'profile' in thing ? thing.profile : null,
      })),
    );
    for (const [i, thing] of things.entries()) {
      await setViewedAt(reader.account.id, thing, `2026-11-20T10:00:00.00000${i}Z`);
    }
  }

  it('shows each game and person as the lists do, newest first, with when it was viewed', async () => {
    const reader = await namedPerson(app.client, 'hr_shape_reader');
    const other = await namedPerson(app.client, 'hr_shape_other');
    await db()('accounts').where({ id: other.account.id }).update({ display_name: 'Other One' });
    const [image] = await db()('images')
      .insert({
        account_id: other.account.id,
        purpose: 'avatar',
        storage_key: `avatars/hr-${other.account.id}.avif`,
        content_type: 'image/avif',
        width: 64,
        height: 64,
        bytes: 100,
        animated: false,
      })
      .returning('id');
    await db()('profiles').insert({ account_id: other.account.id, avatar_image_id: image.id });
    const game = await catalogGame({ name: 'Hollow Knight', slug: 'hr-hollow-knight' });
    await view(reader, '/api/v1/games/hr-hollow-knight', { game: game.id });
    await view(reader, '/api/v1/profiles/hr_shape_other', { profile: other.account.id });

    const res = await reader.site.get('/api/v1/history');
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.have.keys(['data', 'has_more', 'next_before']);
    expect(res.body).to.include({ has_more: false, next_before: null });
    const [person, played] = res.body.data;
    expect(person).to.have.keys(['kind', 'viewed_at', 'game', 'profile']);
    expect(person).to.deep.include({ kind: 'profile', game: null });
    expect(person.profile).to.deep.include({ username: 'hr_shape_other', display_name: 'Other One' });
    expect(person.profile.avatar_url).to.match(new RegExp(`/avatars/hr-${other.account.id}\\.avif$`));
    expect(played).to.deep.include({
      kind: 'game',
      game: { id: game.id, slug: 'hr-hollow-knight', name: 'Hollow Knight', cover_url: null },
      profile: null,
    });
    const stored = await db().raw(
      `SELECT to_char(viewed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM view_history
       WHERE account_id = ? AND game_id = ?`,
      [reader.account.id, game.id],
    );
    expect(played.viewed_at).to.equal(stored.rows[0].at);
    expect(played.viewed_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('walks pages by before, keeps one kind, and never ends a page inside one instant', async () => {
    const reader = await namedPerson(app.client, 'hr_page_reader');
    const people = [await namedPerson(app.client, 'hr_page_a'), await namedPerson(app.client, 'hr_page_b')];
    const games = [await catalogGame(), await catalogGame(), await catalogGame()];
    // Oldest first: game 0, person a, game 1, person b, game 2.
    await seeded(reader, [
      { game: games[0].id },
      { profile: people[0].account.id },
      { game: games[1].id },
      { profile: people[1].account.id },
      { game: games[2].id },
    ]);
    const all = [
      `game:${games[2].id}`,
      'profile:hr_page_b',
      `game:${games[1].id}`,
      'profile:hr_page_a',
      `game:${games[0].id}`,
    ];
    expect(await labels(reader)).to.deep.equal(all);

    const first = await reader.site.get('/api/v1/history?limit=2');
    expect((first.body.data as Item[]).map(label)).to.deep.equal(all.slice(0, 2));
    expect(first.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:00.000003Z' });
    const second = await reader.site.get(`/api/v1/history?limit=2&before=${first.body.next_before}`);
    expect((second.body.data as Item[]).map(label)).to.deep.equal(all.slice(2, 4));
    const last = await reader.site.get(`/api/v1/history?limit=2&before=${second.body.next_before}`);
    expect((last.body.data as Item[]).map(label)).to.deep.equal(all.slice(4));
    expect(last.body).to.include({ has_more: false, next_before: null });

    expect(await labels(reader, '?kind=games')).to.deep.equal(all.filter((item) => item.startsWith('game')));
    expect(await labels(reader, '?kind=profiles')).to.deep.equal(['profile:hr_page_b', 'profile:hr_page_a']);
    const games1 = await reader.site.get('/api/v1/history?kind=games&limit=1');
    expect(games1.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:00.000004Z' });

    // Three views at one instant do not fit a page of two: they come whole, then the rest.
    for (const thing of [{ game: games[1].id }, { profile: people[1].account.id }, { game: games[2].id }]) {
      await setViewedAt(reader.account.id, thing, '2026-11-20T11:00:00.000000Z');
    }
    const grouped = await reader.site.get('/api/v1/history?limit=2');
    expect(grouped.body.data).to.have.length(3);
    expect(grouped.body).to.include({ has_more: true, next_before: '2026-11-20T11:00:00.000000Z' });
    const rest = await reader.site.get(`/api/v1/history?limit=2&before=${grouped.body.next_before}`);
    expect((rest.body.data as Item[]).map(label)).to.deep.equal(['profile:hr_page_a', `game:${games[0].id}`]);
    expect(rest.body).to.include({ has_more: false, next_before: null });
  });

  it('leaves out a person behind a block either way, and a game the catalog lost', async () => {
    const reader = await namedPerson(app.client, 'hr_gone_reader');
    const blocker = await namedPerson(app.client, 'hr_gone_blocker');
    const blocked = await namedPerson(app.client, 'hr_gone_blocked');
    const kept = await namedPerson(app.client, 'hr_gone_kept');
    const lost = await catalogGame();
    const game = await catalogGame();
    await seeded(reader, [
      { profile: blocker.account.id },
      { profile: blocked.account.id },
      { profile: kept.account.id },
      { game: lost.id },
      { game: game.id },
    ]);
    expect(await labels(reader)).to.have.length(5);
    await block(blocker.account.id, reader.account.id);
    await block(reader.account.id, blocked.account.id);
    await db()('games').where({ id: lost.id }).delete();
    expect(await labels(reader)).to.deep.equal([`game:${game.id}`, 'profile:hr_gone_kept']);
    expect(await labels(reader, '?kind=profiles')).to.deep.equal(['profile:hr_gone_kept']);
    // The blocks' views stay recorded: lifting a block shows them again.
    await db()('blocks').where({ blocker_id: reader.account.id }).delete();
    expect(await labels(reader, '?kind=profiles')).to.deep.equal(['profile:hr_gone_kept', 'profile:hr_gone_blocked']);
  });

  it('clears one kind or all of it, the caller’s own only, answering how many went', async () => {
    const reader = await namedPerson(app.client, 'hr_clear_reader');
    const other = await namedPerson(app.client, 'hr_clear_other');
    const games = [await catalogGame(), await catalogGame()];
    await seeded(reader, [{ game: games[0].id }, { profile: other.account.id }, { game: games[1].id }]);
    await seeded(other, [{ game: games[0].id }, { profile: reader.account.id }]);

    const profiles = await reader.site.delete('/api/v1/history?kind=profiles');
    expect(profiles.status, profiles.text).to.equal(200);
    expect(profiles.body).to.deep.equal({ data: { removed: 1 } });
    expect(await labels(reader)).to.deep.equal([`game:${games[1].id}`, `game:${games[0].id}`]);
    expect(await reader.site.delete('/api/v1/history?kind=profiles')).to.have.nested.property('body.data.removed', 0);

    const all = await reader.site.delete('/api/v1/history');
    expect(all.body).to.deep.equal({ data: { removed: 2 } });
    expect(await labels(reader)).to.deep.equal([]);
    expect(await recorded(other.account.id)).to.have.length(2);
    // Recording goes on after a clear.
    await view(reader, `/api/v1/games/${games[0].slug}`, { game: games[0].id });
    expect(await labels(reader)).to.deep.equal([`game:${games[0].id}`]);
  });

  it('is emptied by the deletion category views, and only the caller’s', async () => {
    const reader = await namedPerson(app.client, 'hr_views_reader');
    const other = await namedPerson(app.client, 'hr_views_other');
    const game = await catalogGame();
    await seeded(reader, [{ game: game.id }, { profile: other.account.id }]);
    await seeded(other, [{ game: game.id }]);
    const res = await reader.site.delete('/api/v1/account/data?category=views', { body: { password: PASSWORD } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.removed).to.deep.equal({ view_history: 2 });
    expect(await labels(reader)).to.deep.equal([]);
    expect(await recorded(other.account.id)).to.have.length(1);
  });

  it('refuses what the schema sees', async () => {
    const reader = await namedPerson(app.client, 'hr_refused');
    const cases: Array<[string, string, string]> = [
      ['kind=people', 'kind', 'not_allowed'],
      ['kind=GAMES', 'kind', 'not_allowed'],
      ['kind=game', 'kind', 'not_allowed'],
      ['limit=0', 'limit', 'out_of_range'],
      ['limit=101', 'limit', 'out_of_range'],
      ['limit=two', 'limit', 'wrong_type'],
      ['before=yesterday', 'before', 'bad_format'],
    ];
    for (const [query, field, reason] of cases) {
      refused(
        await reader.site.get(`/api/v1/history?${query}`),
        400,
        { code: 'invalid_request', field, reason },
        query,
      );
    }
    expect((await reader.site.get('/api/v1/history?limit=100&kind=games')).status).to.equal(200);
    refused(await reader.site.delete('/api/v1/history?kind=all'), 400, { field: 'kind', reason: 'not_allowed' });
  });

  it('reads with profile.read and clears with profile.write, each on its allowance; nobody anonymous', async () => {
    const reader = await namedPerson(app.client, 'hr_scopes');
    const game = await catalogGame();
    await seeded(reader, [{ game: game.id }]);
    const anonymous = new SiteClient(app.client);
    refused(await anonymous.get('/api/v1/history'), 401, { code: 'unauthorized' });
    refused(await anonymous.delete('/api/v1/history'), 401, { code: 'unauthorized' });

    const writer = await keyed(app.client, reader.account.id, ['profile.write']);
    refused(await writer.get('/api/v1/history'), 403, { code: 'insufficient_scope', scope: 'profile.read' });
    const readerKey = await keyed(app.client, reader.account.id, ['profile.read']);
    const read = await readerKey.get('/api/v1/history');
    expect(read.status, read.text).to.equal(200);
    expect((read.body.data as Item[]).map(label)).to.deep.equal([`game:${game.id}`]);
    expect(read.headers.get('x-ratelimit-resource')).to.equal('read');
    refused(await readerKey.delete('/api/v1/history'), 403, { code: 'insufficient_scope', scope: 'profile.write' });
    expect(await recorded(reader.account.id)).to.have.length(1);

    const cleared = await writer.delete('/api/v1/history');
    expect(cleared.status, cleared.text).to.equal(200);
    expect(cleared.body.data).to.deep.equal({ removed: 1 });
    expect(cleared.headers.get('x-ratelimit-resource')).to.equal('write');
  });
});
