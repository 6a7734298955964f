// GET /search/companies on a few hand-built companies and games.
import { expect } from 'chai';
import { refreshCompanyCounts } from '../../shared/catalog/companies.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { useTestApp } from '../helpers/test-app.js';

const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((c) => c.name);

describe('GET /search/companies', () => {
  useCleanDatabase();
  const app = useTestApp();

  before(async () => {
    await db()('catalog_companies').insert([
      { id: 1, name: 'Nintendo', slug: 'nintendo', status: 'active', start_date: '1889-09-23' },
      { id: 2, name: 'Nintendo EAD', slug: 'nintendo-ead', status: 'merged', start_date: '1983-01-01' },
      { id: 3, name: 'Valve', slug: 'valve', status: 'active', start_date: '1996-08-24' },
      { id: 4, name: 'Sierra Entértainment', slug: 'sierra', status: 'defunct', start_date: '1979-01-01' },
      { id: 5, name: 'Tiny Studio', slug: 'tiny', status: 'active', start_date: null },
    ]);
    const games: Array<[string, number[], number[]]> = [
      ['zelda', [1], [2]],
      ['mario', [1], [2]],
      ['metroid', [1], [1]],
      ['half-life', [4], [3]],
      ['portal', [3], [3]],
    ];
    for (const [slug, publishers, developers] of games) {
      await db()('games').insert({ slug, name: slug, publisher_ids: publishers, developer_ids: developers });
    }
    await refreshCompanyCounts(db());
  });

  it('sorts by catalog size by default, with counts per role', async () => {
    const res = await app.client.get('/api/v1/search/companies');
    expect(res.status).to.equal(200);
    expect(names(res)).to.deep.equal(['Nintendo', 'Valve', 'Nintendo EAD', 'Sierra Entértainment', 'Tiny Studio']);
    expect(res.body.data[0]).to.deep.equal({
      id: 1,
      slug: 'nintendo',
      name: 'Nintendo',
      status: 'active',
      founded_year: 1889,
      published_games: 3,
      developed_games: 1,
    });
    expect(res.body.page).to.include({ number: 1, size: 24, total_items: 5, has_more: false });
  });

  const cases: Array<[string, string[]]> = [
    ['q=nintendo', ['Nintendo', 'Nintendo EAD']],
    ['q=ead', ['Nintendo EAD']],
    ['q=entertainment', ['Sierra Entértainment']],
    ['role=publisher', ['Nintendo', 'Valve', 'Sierra Entértainment']],
    ['role=developer', ['Nintendo', 'Valve', 'Nintendo EAD']],
    ['status=active', ['Nintendo', 'Valve', 'Tiny Studio']],
    ['sort=name', ['Nintendo', 'Nintendo EAD', 'Sierra Entértainment', 'Tiny Studio', 'Valve']],
    ['sort=oldest', ['Nintendo', 'Sierra Entértainment', 'Nintendo EAD', 'Valve', 'Tiny Studio']],
    ['sort=newest', ['Valve', 'Nintendo EAD', 'Sierra Entértainment', 'Nintendo', 'Tiny Studio']],
  ];
  for (const [query, expected] of cases) {
    it(`answers ${query}`, async () => {
      expect(names(await app.client.get(`/api/v1/search/companies?${query}`))).to.deep.equal(expected);
    });
  }

  for (const [query, field] of [
    ['role=owner', 'role'],
    ['status=defunct', 'status'],
    ['sort=best', 'sort'],
    ['page=101', 'page'],
    [`q=${'x'.repeat(81)}`, 'q'],
  ]) {
    it(`refuses ${query.slice(0, 20)} naming ${field}`, async () => {
      const res = await app.client.get(`/api/v1/search/companies?${query}`);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', field });
    });
  }
});
