// GET /profiles/{username}/library: filters, sorts, the games member, paging and every bad parameter.
// Who may read the library at all is in people-profiles.test.ts.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /profiles/{username}/library', () => {
  useCleanDatabase();
  const app = useTestApp();
  // The tables are emptied once per file: each test has an owner of its own.
  let shelves = 0;
  let path: string;
  let visitor: SiteClient;
  let ownerId: string;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  const gameIds = (res: { body: { data: Array<{ game_id: number }> } }) => res.body.data.map((e) => e.game_id);

  beforeEach(async () => {
    const name = `shelf_owner_${++shelves}`;
    ownerId = (await people.namedPerson(app.client, name)).account.id;
    path = `/api/v1/profiles/${name}/library`;
    visitor = new SiteClient(app.client);
  });

  it('answers entries with their fields, most recently updated first, leaving ignored games out', async () => {
    const oldest = await people.libraryEntry(ownerId, {
      game_id: 1,
      status: 'COMPLETED',
      rating: 80,
      updated_at: at(30),
    });
    await people.libraryEntry(ownerId, { game_id: 2, playing: true, platform_id: 6, updated_at: at(10) });
    await people.libraryEntry(ownerId, { game_id: 3, wishlist: true, ignored: true, updated_at: at(20) });
    const res = await visitor.get(path);
    expect(res.status).to.equal(200);
    // An ignored game is its owner's "not for me": GET /library shows it, the profile does not.
    expect(gameIds(res)).to.deep.equal([2, 1]);
    expect(res.body.page.total_items).to.equal(2);
    expect(Object.keys(res.body.data[0]).sort()).to.deep.equal([
      'backlog',
      'created_at',
      'game_id',
      'liked',
      'platform_id',
      'playing',
      'rating',
      'status',
      'updated_at',
      'wishlist',
    ]);
    expect(res.body.data[1]).to.include({ status: 'COMPLETED', rating: 80, playing: false, platform_id: null });
    expect(res.body.data[1].updated_at).to.equal((oldest.updated_at as Date).toISOString());
    expect(res.body).to.not.have.property('games');
  });

  it('sorts by rating, highest first, the unrated last, ties by the latest update', async () => {
    await people.libraryEntry(ownerId, { game_id: 1, rating: 60, updated_at: at(5) });
    await people.libraryEntry(ownerId, { game_id: 2, updated_at: at(1) });
    await people.libraryEntry(ownerId, { game_id: 3, rating: 90, updated_at: at(50) });
    await people.libraryEntry(ownerId, { game_id: 4, rating: 60, updated_at: at(2) });
    await people.libraryEntry(ownerId, { game_id: 5, updated_at: at(40) });
    expect(gameIds(await visitor.get(`${path}?sort=rating`))).to.deep.equal([3, 4, 1, 2, 5]);
    expect(gameIds(await visitor.get(`${path}?sort=updated`))).to.deep.equal([2, 4, 1, 5, 3]);
  });

  it('combines status and flag filters with AND; wishlist is the flag or the status', async () => {
    await people.libraryEntry(ownerId, { game_id: 1, status: 'COMPLETED', playing: true, liked: true });
    await people.libraryEntry(ownerId, { game_id: 2, status: 'COMPLETED', liked: true });
    await people.libraryEntry(ownerId, { game_id: 3, status: 'COMPLETED', playing: true });
    await people.libraryEntry(ownerId, { game_id: 4, status: 'PLAYING', playing: true, liked: true });
    await people.libraryEntry(ownerId, { game_id: 5, wishlist: true });
    await people.libraryEntry(ownerId, { game_id: 6, status: 'WISHLIST' });
    await people.libraryEntry(ownerId, { game_id: 7, backlog: true });
    const ids = async (query: string) => gameIds(await visitor.get(`${path}?${query}`)).sort((a, b) => a - b);
    expect(await ids('status=COMPLETED&playing=true&liked=1')).to.deep.equal([1]);
    expect(await ids('status=COMPLETED&playing=0')).to.deep.equal([2]);
    expect(await ids('playing=true&liked=false')).to.deep.equal([3]);
    expect(await ids('wishlist=1')).to.deep.equal([5, 6]);
    expect(await ids('wishlist=false&backlog=false&liked=false&playing=false')).to.deep.equal([]);
    expect(await ids('wishlist=false&backlog=true')).to.deep.equal([7]);
    expect(await ids('status=DROPPED')).to.deep.equal([]);
  });

  it('adds name, cover and slug of the page’s games with games=1, null for a game the catalog lost', async () => {
    const known = await people.catalogGame({ name: 'Known Game', slug: 'known-game' });
    await people.libraryEntry(ownerId, { game_id: known.id, updated_at: at(1) });
    await people.libraryEntry(ownerId, { game_id: 999999, updated_at: at(2) });
    await people.libraryEntry(ownerId, { game_id: (await people.catalogGame()).id, updated_at: at(3) });
    const res = await visitor.get(`${path}?games=1&limit=2`);
    expect(res.body.games).to.deep.equal({
      [known.id]: { name: 'Known Game', cover: null, slug: 'known-game' },
      999999: null,
    });
    expect(await visitor.get(`${path}?games=0`))
      .to.have.nested.property('body.data')
      .with.length(3);
    expect((await visitor.get(`${path}?games=0`)).body).to.not.have.property('games');
  });

  it('pages by limit with has_more from the total, and an empty page past the end', async () => {
    for (let game = 1; game <= 5; game++) await people.libraryEntry(ownerId, { game_id: game, updated_at: at(game) });
    const first = await visitor.get(`${path}?limit=2`);
    expect(gameIds(first)).to.deep.equal([1, 2]);
    expect(first.body.page).to.deep.equal({ number: 1, size: 2, total_items: 5, total_pages: 3, has_more: true });
    const last = await visitor.get(`${path}?limit=2&page=3`);
    expect(gameIds(last)).to.deep.equal([5]);
    expect(last.body.page.has_more).to.equal(false);
    const past = await visitor.get(`${path}?limit=2&page=4`);
    expect(past.body.data).to.deep.equal([]);
    expect(past.body.page).to.include({ total_items: 5, has_more: false });
    expect((await visitor.get(path)).body.page).to.include({ number: 1, size: 100 });
  });

  it('refuses every parameter outside its bounds with 400 naming it', async () => {
    const bad: Array<[string, string]> = [
      ['page=0', 'page'],
      ['page=1001', 'page'],
      ['page=x', 'page'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['status=FINISHED', 'status'],
      ['status=completed', 'status'],
      ['sort=best', 'sort'],
      ['playing=yes', 'playing'],
      ['backlog=2', 'backlog'],
      ['wishlist=', 'wishlist'],
      ['liked=TRUE', 'liked'],
      ['games=2', 'games'],
      ['games=yes', 'games'],
    ];
    for (const [query, field] of bad) {
      const res = await visitor.get(`${path}?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error, query).to.include({ code: 'invalid_request', field });
    }
    for (const query of ['page=1000', 'limit=1', 'limit=1000', 'status=ON_HOLD', 'sort=rating']) {
      expect((await visitor.get(`${path}?${query}`)).status, query).to.equal(200);
    }
  });

  it('is 404 for a name nobody holds and for one nobody could hold, after refusing bad parameters', async () => {
    for (const name of ['nobody_at_all', 'not--a--name', 'x']) {
      const res = await visitor.get(`/api/v1/profiles/${name}/library`);
      expect(res.status, name).to.equal(404);
      expect(res.body.error.code, name).to.equal('not_found');
    }
    const bad = await visitor.get('/api/v1/profiles/nobody_at_all/library?limit=0');
    expect(bad.status).to.equal(400);
    expect(bad.body.error.field).to.equal('limit');
  });
});
