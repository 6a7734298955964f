// GET /games and friends on a small hand-built catalog where every right answer is known.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, buildAccount, signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { eachCatalogWay } from '../helpers/catalog-ways.js';
import { game, handBuiltCatalog } from '../helpers/hand-built-catalog.js';

const slugs = (res: { body: { data: Array<{ slug: string }> } }) => res.body.data.map((g) => g.slug);

describe('the game catalog (GET /games)', () => {
  useCleanDatabase();
  const app = useTestApp();
  const ids: Record<string, number> = {};

  before(async () => {
    Object.assign(ids, await handBuiltCatalog());
  });

  it('browses known main games, remakes and remasters by popularity, 24 a page, with public caching', async () => {
    const res = await app.client.get('/api/v1/games');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=60');
    expect(slugs(res)).to.deep.equal([
      'the-legend-of-zelda',
      'pokemon-red',
      'half-life-2',
      'portal',
      'zelda-ii',
      'half-life-2-remaster',
      'upcoming-epic',
      'cancelled-thing',
      'recent-indie',
    ]);
    expect(res.body.page).to.deep.equal({ number: 1, size: 24, total_items: 9, total_pages: 1, has_more: false });
    expect(res.body.data[2]).to.deep.equal({
      id: ids['half-life-2'],
      slug: 'half-life-2',
      name: 'Half-Life 2',
      release_year: 2004,
      type: 0,
      rating: 95,
      genres: ['Shooter'],
      demo_available: true,
      cover_url: null,
    });
  });

  it('includes lesser-known games with obscure=1 and every type with types', async () => {
    expect(slugs(await app.client.get('/api/v1/games?obscure=1'))).to.include('obscure-gem');
    expect(slugs(await app.client.get('/api/v1/games?types=1'))).to.deep.equal(['half-life-dlc']);
  });

  const filters: Array<[string, string[]]> = [
    ['platforms=6,33', ['pokemon-red', 'half-life-2']],
    ['genres=5,12&genresMode=all', ['portal']],
    [
      'genres=5,12',
      ['the-legend-of-zelda', 'pokemon-red', 'half-life-2', 'portal', 'zelda-ii', 'half-life-2-remaster'],
    ],
    ['publishers=56&role=developer', ['half-life-2', 'portal']],
    ['publishers=57&role=developer', []],
    ['publishers=57', ['half-life-2']],
    ['engines=source', ['half-life-2']],
    ['franchises=77', ['half-life-2']],
    ['series=88', ['half-life-2']],
    ['release=upcoming', ['upcoming-epic', 'cancelled-thing']],
    ['period=last-30-days', ['recent-indie']],
    ['period=next-3-months', ['upcoming-epic']],
    ['yearFrom=1986&yearTo=1987', ['the-legend-of-zelda', 'zelda-ii']],
    ['demo=1', ['half-life-2']],
    ['steam=1', ['half-life-2']],
    ['rated=1', ['half-life-2', 'portal']],
    ['reviewed=1', ['half-life-2']],
    ['anticipated=1', ['upcoming-epic']],
    ['obscure=1&yearTo=1950', ['vintage-racer', 'lost-prototype', 'whispered-sequel']],
    ['obscure=1&yearTo=1950&hideCancelled=1', ['vintage-racer']],
    ['language=pt', ['half-life-2', 'portal']],
    ['language=pt-BR', ['half-life-2']],
    ['interface=ja', ['pokemon-red']],
    ['audio=pt', []],
    ['subtitles=pt-PT', ['portal']],
    ['age=pegi-7', ['the-legend-of-zelda']],
    ['age=pegi-12', ['the-legend-of-zelda', 'zelda-ii']],
    ['age=pegi-16', ['the-legend-of-zelda', 'half-life-2', 'zelda-ii']],
    ['age=esrb-m', ['half-life-2']],
    ['rating=90', ['half-life-2']],
    ['votes=20', ['half-life-2']],
    ['libraries=10', ['half-life-2']],
    ['status=early_access,beta', ['recent-indie']],
    ['hoursMin=5&hoursMax=20', ['half-life-2']],
  ];
  for (const [query, expected] of filters) {
    it(`filters ${query}`, async () => {
      const res = await app.client.get(`/api/v1/games?${query}`);
      expect(res.status, res.text).to.equal(200);
      expect(slugs(res)).to.deep.equal(expected);
      expect(res.body.page.total_items).to.equal(expected.length);
    });
  }

  it('leaves out cancelled and rumored games with hideCancelled', async () => {
    expect(slugs(await app.client.get('/api/v1/games?hideCancelled=1'))).to.not.include('cancelled-thing');
  });

  const sorts: Array<[string, string]> = [
    ['trending', 'portal'],
    ['rating', 'half-life-2'],
    ['votes', 'half-life-2'],
    ['newest', 'upcoming-epic'],
    ['oldest', 'the-legend-of-zelda'],
    ['hype', 'upcoming-epic'],
    ['name', 'cancelled-thing'],
  ];
  for (const [sort, first] of sorts) {
    it(`sorts by ${sort}`, async () => {
      const res = await app.client.get(`/api/v1/games?sort=${sort}`);
      expect(slugs(res)[0]).to.equal(first);
    });
  }

  eachCatalogWay(() => {
    it('matches text without accents, the name first, then prefixes, then words, across every type', async () => {
      expect(slugs(await app.client.get('/api/v1/games?q=pokemon'))).to.deep.equal(['pokemon-red']);
      const zelda = await app.client.get('/api/v1/games?q=Zelda');
      expect(zelda.headers.get('cache-control')).to.equal('public, max-age=60');
      expect(zelda.body.page).to.deep.equal({ number: 1, size: 24, total_items: 2, total_pages: 1, has_more: false });
      expect(slugs(zelda)).to.deep.equal(['zelda-ii', 'the-legend-of-zelda']);
      const half = await app.client.get('/api/v1/games?q=half-life 2');
      expect(slugs(half)).to.deep.equal(['half-life-2', 'half-life-2-remaster']);
      expect(slugs(await app.client.get('/api/v1/games?q=extra'))).to.deep.equal(['half-life-dlc']);
      // Wildcards are text, not patterns.
      expect(slugs(await app.client.get('/api/v1/games?q=%25'))).to.deep.equal([]);
    });

    it('falls back to names that look like the text when nothing contains it', async () => {
      const res = await app.client.get('/api/v1/games?q=legnd of zeldda');
      expect(slugs(res)[0]).to.equal('the-legend-of-zelda');
    });
  });

  it('pages with has_more from the total', async () => {
    for (let i = 0; i < 30; i += 1) await game(`filler-${i}`, { popularity: 0.5, genre_ids: [99] });
    const first = await app.client.get('/api/v1/games?genres=99');
    expect(first.body.data).to.have.length(24);
    expect(first.body.page).to.deep.equal({ number: 1, size: 24, total_items: 30, total_pages: 2, has_more: true });
    const second = await app.client.get('/api/v1/games?genres=99&page=2');
    expect(second.body.data).to.have.length(6);
    expect(second.body.page.has_more).to.equal(false);
  });

  describe('GET /games/{slug} and /games/ratings', () => {
    it('answers one game in the search shape, or 404', async () => {
      const res = await app.client.get('/api/v1/games/portal');
      expect(res.body.data).to.include({ slug: 'portal', type: 0, rating: 88 });
      expect(res.body.data.genres).to.deep.equal(['Shooter', 'Role-playing (RPG)']);
      const missing = await app.client.get('/api/v1/games/no-such-game');
      expect(missing.status).to.equal(404);
      expect(missing.body.error.code).to.equal('not_found');
    });

    it('answers ratings of 1 to 200 ids, leaving out unknown ones', async () => {
      const res = await app.client.get(`/api/v1/games/ratings?ids=${ids.portal},${ids['half-life-2']},999999`);
      expect(res.body.data).to.deep.equal([
        { id: ids.portal, rating: 88, rating_count: 10, weighted_rating: 85 },
        { id: ids['half-life-2'], rating: 95, rating_count: 40, weighted_rating: 90 },
      ]);
      for (const query of [
        '',
        '?ids=',
        `?ids=${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}`,
        '?ids=1,1',
        '?ids=x',
      ]) {
        const refused = await app.client.get(`/api/v1/games/ratings${query}`);
        expect(refused.status, query).to.equal(400);
        expect(refused.body.error.field, query).to.equal('ids');
      }
    });
  });

  describe('own-library filters', () => {
    it('filter by the caller’s library, need a caller, and a key with library.read, and are never cached publicly', async () => {
      const { account, site } = await signedInClient(app.client);
      await db()('library_entries').insert([
        { account_id: account.id, game_id: ids.portal, status: 'COMPLETED' },
        { account_id: account.id, game_id: ids['pokemon-red'], status: 'PLAYING' },
        { account_id: account.id, game_id: ids['zelda-ii'], wishlist: true },
        { account_id: account.id, game_id: ids['the-legend-of-zelda'], status: 'WISHLIST' },
        { account_id: account.id, game_id: ids['upcoming-epic'], ignored: true },
      ]);
      const cases: Array<[string, string[]]> = [
        ['played=1', ['portal']],
        ['library=1', ['the-legend-of-zelda', 'pokemon-red', 'portal', 'zelda-ii', 'upcoming-epic']],
        [
          'unplayed=1&genres=5,12',
          ['the-legend-of-zelda', 'pokemon-red', 'half-life-2', 'zelda-ii', 'half-life-2-remaster'],
        ],
        ['wishlist=1', ['the-legend-of-zelda', 'zelda-ii']],
        ['hideIgnored=1&sort=hype', ['half-life-2-remaster']],
      ];
      for (const [query, expected] of cases) {
        const res = await site.get(`/api/v1/games?${query}`);
        expect(res.status, query).to.equal(200);
        expect(res.headers.get('cache-control'), query).to.equal('private, no-store');
        if (query.startsWith('hideIgnored')) expect(slugs(res), query).to.not.include('upcoming-epic');
        else expect(slugs(res), query).to.deep.equal(expected);
      }
      const anonymous = await app.client.get('/api/v1/games?played=1');
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.error.code).to.equal('unauthorized');
      const { token: catalogOnly } = await appWithKey(account.id, ['catalog.read']);
      const refused = await app.client.get('/api/v1/games?library=1', {
        headers: { authorization: `Bearer ${catalogOnly}` },
      });
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'library.read' });
      const { token: both } = await appWithKey(account.id, ['catalog.read', 'library.read']);
      const keyed = await app.client.get('/api/v1/games?played=1', { headers: { authorization: `Bearer ${both}` } });
      expect(slugs(keyed)).to.deep.equal(['portal']);
      expect((await app.client.get('/api/v1/games?played=2')).body.error).to.include({ field: 'played' });
    });
  });

  describe('keys', () => {
    it('needs catalog.read of a key and spends the catalog allowance', async () => {
      const { account } = await buildAccount();
      const { token: without } = await appWithKey(account.id, ['profile.read']);
      const { token: withScope } = await appWithKey(account.id, ['catalog.read']);
      const refused = await app.client.get('/api/v1/games', { headers: { authorization: `Bearer ${without}` } });
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'catalog.read' });
      const allowed = await app.client.get('/api/v1/games', { headers: { authorization: `Bearer ${withScope}` } });
      expect(allowed.status).to.equal(200);
      expect(allowed.headers.get('x-ratelimit-resource')).to.equal('catalog');
      const bad = await app.client.get('/api/v1/games', { headers: { authorization: 'Bearer nope' } });
      expect(bad.status).to.equal(401);
    });
  });
});
