// GET /search/counts: per-tab counts of what anyone may see, capped, cached for 60 seconds.
import { expect } from 'chai';
import { claimFirstUsername } from '../../shared/accounts/usernames.js';
import { clearSearchCountCache, searchCounts } from '../../shared/catalog/search-counts.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, buildAccount } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /search/counts', () => {
  useCleanDatabase();
  const app = useTestApp();

  before(async () => {
    clearSearchCountCache();
    const names = ['zelda_fan', 'mario_fan', 'banned_zelda'];
    const ids: string[] = [];
    for (const name of names) {
      const { account } = await buildAccount();
      await db().transaction((trx) => claimFirstUsername(trx, account.id, name));
      ids.push(account.id);
    }
    await db()('infractions').insert({
      account_id: ids[2],
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86400000),
    });
    await db()('games').insert([
      { slug: 'zelda', name: 'The Legend of Zelda' },
      { slug: 'zelda-2', name: 'Zelda II' },
      { slug: 'mario', name: 'Super Mario' },
    ]);
    await db()('catalog_companies').insert({ id: 1, name: 'Zelda Works' });
    await db()('reviews').insert([
      { account_id: ids[0], game_id: 1, body: 'Zelda is great', visibility: 'PUBLIC' },
      { account_id: ids[0], game_id: 1, body: 'Zelda secret', visibility: 'PRIVATE' },
      { account_id: ids[2], game_id: 1, body: 'Zelda by a suspended one', visibility: 'PUBLIC' },
    ]);
    await db()('lists').insert([
      { account_id: ids[0], public_id: 'l1', title: 'Best Zelda games', visibility: 'PUBLIC', mode: 'list' },
      { account_id: ids[0], public_id: 'l2', title: 'Zelda tiers', visibility: 'PUBLIC', mode: 'tier' },
      { account_id: ids[1], public_id: 'l3', title: 'Zelda, privately', visibility: 'FOLLOWERS', mode: 'list' },
    ]);
  });

  it('counts each tab for a query, leaving out private items and suspended people', async () => {
    const res = await app.client.get('/api/v1/search/counts?q=zelda');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=60');
    expect(res.body.data).to.deep.equal({
      q: 'zelda',
      cap: 1000,
      games: 2,
      reviews: 1,
      lists: 1,
      tier_lists: 1,
      awards: 0,
      people: 1,
      companies: 1,
    });
  });

  it('answers the visible totals without q', async () => {
    const res = await app.client.get('/api/v1/search/counts');
    expect(res.body.data).to.include({
      q: null,
      games: 3,
      reviews: 1,
      lists: 1,
      tier_lists: 1,
      people: 2,
      companies: 1,
    });
  });

  it('keeps an answer for 60 seconds, then counts again', async () => {
    const start = Date.now();
    const before = await searchCounts(db(), 'mario', start);
    await db()('games').insert({ slug: 'mario-2', name: 'Super Mario 2' });
    expect((await searchCounts(db(), 'mario', start + 59_000)).games).to.equal(before.games);
    expect((await searchCounts(db(), 'mario', start + 61_000)).games).to.equal(before.games + 1);
  });

  it('caps each count at 1000', async () => {
    await db()('games').insert(Array.from({ length: 1005 }, (_, i) => ({ slug: `filler-${i}`, name: `Filler ${i}` })));
    expect((await searchCounts(db(), 'filler')).games).to.equal(1000);
  });

  it('needs catalog.read of a key, spending the read allowance, and refuses a long q', async () => {
    const { account } = await buildAccount();
    const { token } = await appWithKey(account.id, ['profile.read']);
    const refused = await app.client.get('/api/v1/search/counts', { headers: { authorization: `Bearer ${token}` } });
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'catalog.read' });
    const { token: ok } = await appWithKey(account.id, ['catalog.read']);
    const allowed = await app.client.get('/api/v1/search/counts', { headers: { authorization: `Bearer ${ok}` } });
    expect(allowed.headers.get('x-ratelimit-resource')).to.equal('read');
    expect((await app.client.get(`/api/v1/search/counts?q=${'x'.repeat(81)}`)).body.error).to.include({ field: 'q' });
  });
});
