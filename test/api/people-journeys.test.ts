// GET /profiles/{username}/journeys: which runs each reader sees, newest first, with their catalog games
// shaped like /games, the page bounds and the key scope.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { block, catalogGame, follow, journey, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 10, minutes));

describe('GET /profiles/{username}/journeys', () => {
  useCleanDatabase();
  const app = useTestApp();
  const titles = (res: { body: { data: Array<{ title: string }> } }) => res.body.data.map((j) => j.title);

  it('shows each reader the runs item visibility allows, newest first, with games shaped like /games', async () => {
    const owner = await namedPerson(app.client, 'run_owner');
    const follower = await namedPerson(app.client, 'run_follower');
    const stranger = await namedPerson(app.client, 'run_stranger');
    await follow(follower.account.id, owner.account.id);
    await db()('catalog_genres').insert([{ id: 12, name: 'Role-playing (RPG)' }]);
    const zelda = await catalogGame({
      name: 'Zelda',
      slug: 'zelda',
      genre_ids: [12],
      release_year: 1986,
      rating: 87.26,
      demo_available: true,
      cover_image_id: 'co1uii',
    });
    await journey(owner.account.id, {
      game_id: zelda.id,
      title: 'pub',
      created_at: at(1),
      started_at: at(0),
      finished_at: at(1),
    });
    await journey(owner.account.id, { game_id: zelda.id, title: 'fol', visibility: 'FOLLOWERS', created_at: at(2) });
    await journey(owner.account.id, { game_id: zelda.id, title: 'priv', visibility: 'PRIVATE', created_at: at(3) });
    // A game the catalog lost since the run began.
    await journey(owner.account.id, { game_id: 987654, title: 'lost', created_at: at(4) });

    const path = '/api/v1/profiles/run_owner/journeys';
    const seen: Array<[SiteClient, string[]]> = [
      [new SiteClient(app.client), ['lost', 'pub']],
      [stranger.site, ['lost', 'pub']],
      [follower.site, ['lost', 'fol', 'pub']],
      [owner.site, ['lost', 'priv', 'fol', 'pub']],
    ];
    for (const [reader, expected] of seen) {
      const res = await reader.get(path);
      expect(res.status).to.equal(200);
      expect(titles(res)).to.deep.equal(expected);
      expect(res.body.page).to.deep.equal({
        number: 1,
        size: 24,
        total_items: expected.length,
        total_pages: 1,
        has_more: false,
      });
    }
    const res = await stranger.site.get(path);
    expect(res.body.data[0]).to.include({ game: null, started_at: null, finished_at: null });
    const run = res.body.data[1];
    // Shaped as the owner's journal answers a journey, with the totals this reader may see.
    expect(run).to.have.keys([
      'id',
      'game_id',
      'game',
      'title',
      'started_at',
      'finished_at',
      'visibility',
      'sessions',
      'minutes',
      'likes',
      'comments',
      'awards',
      'removed',
      'created_at',
      'updated_at',
    ]);
    expect(run).to.include({
      started_at: at(0).toISOString(),
      finished_at: at(1).toISOString(),
      created_at: at(1).toISOString(),
    });
    expect(run.game).to.deep.equal({
      id: zelda.id,
      slug: 'zelda',
      name: 'Zelda',
      release_year: 1986,
      type: null,
      rating: 87.3,
      genres: ['Role-playing (RPG)'],
      demo_available: true,
      cover_url: 'https://images.igdb.com/igdb/image/upload/t_cover_big/co1uii.jpg',
    });
    // The same row the catalog answers for the game.
    const catalog = await app.client.get('/api/v1/games?q=zelda');
    expect(catalog.status).to.equal(200);
    expect(run.game).to.deep.equal(catalog.body.data[0]);
  });

  it('hides runs from both sides of a block, pages by number, checks bounds and the key scope', async () => {
    const owner = await namedPerson(app.client, 'pager_owner');
    const blocked = await namedPerson(app.client, 'pager_blocked');
    const blocker = await namedPerson(app.client, 'pager_blocker');
    await block(owner.account.id, blocked.account.id);
    await block(blocker.account.id, owner.account.id);
    for (let i = 0; i < 3; i += 1) await journey(owner.account.id, { title: `run ${i}`, created_at: at(i) });
    await journey(owner.account.id, { title: 'secret', visibility: 'PRIVATE', created_at: at(9) });
    const path = '/api/v1/profiles/pager_owner/journeys';
    for (const reader of [blocked, blocker]) expect((await reader.site.get(path)).status).to.equal(404);
    expect((await app.client.get('/api/v1/profiles/nobody_here/journeys')).status).to.equal(404);

    const second = await app.client.get(`${path}?page=2&limit=2`);
    expect(titles(second)).to.deep.equal(['run 0']);
    expect(second.body.page).to.deep.equal({ number: 2, size: 2, total_items: 3, total_pages: 2, has_more: false });
    const first = await app.client.get(`${path}?limit=2`);
    expect(titles(first)).to.deep.equal(['run 2', 'run 1']);
    expect(first.body.page.has_more).to.equal(true);
    const far = await app.client.get(`${path}?page=200&limit=48`);
    expect(far.status).to.equal(200);
    expect(far.body.data).to.deep.equal([]);

    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=201', 'page'],
      ['page=one', 'page'],
      ['limit=0', 'limit'],
      ['limit=49', 'limit'],
    ]) {
      const res = await app.client.get(`${path}?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error, query).to.include({ code: 'invalid_request', field });
    }

    const { token } = await appWithKey(owner.account.id, ['journal.read']);
    const own = await app.client.get(path, { headers: { authorization: `Bearer ${token}` } });
    expect(titles(own)).to.deep.equal(['secret', 'run 2', 'run 1', 'run 0']);
    const other = await appWithKey(owner.account.id, ['lists.read']);
    const refused = await app.client.get(path, { headers: { authorization: `Bearer ${other.token}` } });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'journal.read' });
  });
});
