// GET /discovery/people: friends playing now and people with a similar taste.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { block, follow, libraryEntry, namedPerson, playSession } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /discovery/people', () => {
  useCleanDatabase();
  const app = useTestApp();
  const names = (people: Array<{ username: string }>) => people.map((p) => p.username);

  it('shows followed people playing now, and people sharing loved games, leaving out blocks and private libraries', async () => {
    const me = await namedPerson(app.client, 'disc_me');
    const friend = await namedPerson(app.client, 'disc_friend');
    const idle = await namedPerson(app.client, 'disc_idle');
    const twin = await namedPerson(app.client, 'disc_twin');
    const cousin = await namedPerson(app.client, 'disc_cousin');
    const hidden = await namedPerson(app.client, 'disc_hidden', 'PRIVATE');
    const blocker = await namedPerson(app.client, 'disc_blocker');
    await follow(me.account.id, friend.account.id);
    await follow(me.account.id, idle.account.id);
    await playSession(friend.account.id, { game_id: 7, ended_at: null });
    await playSession(idle.account.id, {
      game_id: 7,
      started_at: new Date(Date.now() - 40 * 86400000),
      ended_at: new Date(Date.now() - 40 * 86400000 + 60000),
      minutes: 1,
    });
    for (const game of [1, 2, 3]) await libraryEntry(me.account.id, { game_id: game, liked: true });
    for (const game of [1, 2, 3]) await libraryEntry(twin.account.id, { game_id: game, rating: 90 });
    await libraryEntry(cousin.account.id, { game_id: 1, liked: true });
    await libraryEntry(cousin.account.id, { game_id: 2, rating: 50 });
    for (const game of [1, 2, 3]) await libraryEntry(hidden.account.id, { game_id: game, liked: true });
    for (const game of [1, 2, 3]) await libraryEntry(blocker.account.id, { game_id: game, liked: true });
    await block(blocker.account.id, me.account.id);
    await db()('mineral_balances').insert({ account_id: twin.account.id, level: 4 });

    const res = await me.site.get('/api/v1/discovery/people');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('private, no-store');
    expect(names(res.body.data.friends_playing)).to.deep.equal(['disc_friend']);
    expect(res.body.data.friends_playing[0].games).to.deep.equal([7]);
    expect(names(res.body.data.similar_taste)).to.deep.equal(['disc_twin', 'disc_cousin']);
    expect(res.body.data.similar_taste[0]).to.include({ shared_games: 3, level: 4 });
  });

  it('counts the sessions a follower may see: followers-only too, never private, removed, or across a block', async () => {
    const me = await namedPerson(app.client, 'disc_reader');
    const close = await namedPerson(app.client, 'disc_close');
    const secret = await namedPerson(app.client, 'disc_secret');
    const removed = await namedPerson(app.client, 'disc_removed');
    const blocker = await namedPerson(app.client, 'disc_blocks_me');
    const stranger = await namedPerson(app.client, 'disc_stranger');
    for (const friend of [close, secret, removed, blocker]) await follow(me.account.id, friend.account.id);
    // A followers-only session and a private one of the same friend: only the first names its game.
    await playSession(close.account.id, { game_id: 21, visibility: 'FOLLOWERS' });
    await playSession(close.account.id, { game_id: 22, visibility: 'PRIVATE' });
    await playSession(secret.account.id, { game_id: 23, visibility: 'PRIVATE', ended_at: null });
    await playSession(removed.account.id, { game_id: 24, visibility: 'FOLLOWERS', removed_at: new Date() });
    await playSession(blocker.account.id, { game_id: 25, visibility: 'FOLLOWERS' });
    await block(blocker.account.id, me.account.id);
    // Someone the reader does not follow is no friend, whatever they play.
    await playSession(stranger.account.id, { game_id: 26 });

    const playing = (await me.site.get('/api/v1/discovery/people')).body.data.friends_playing;
    expect(names(playing)).to.deep.equal(['disc_close']);
    expect(playing[0].games).to.deep.equal([21]);
    // The block hides both ways: the blocker, reading, does not find the reader either.
    await follow(blocker.account.id, me.account.id);
    await playSession(me.account.id, { game_id: 27, visibility: 'FOLLOWERS' });
    expect((await blocker.site.get('/api/v1/discovery/people')).body.data.friends_playing).to.deep.equal([]);
  });

  it('answers two empty lists to a reader without an account', async () => {
    const res = await app.client.get('/api/v1/discovery/people');
    expect(res.body.data).to.deep.equal({ friends_playing: [], similar_taste: [] });
  });
});
