// GET /library (DECISIONS: Library): the owner's whole library, ignored games included, with the filters,
// sorts, paging and games=1 of the profile's library.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import * as people from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

type Person = people.NamedPerson;
type Game = people.CatalogGame;

describe('the owner’s library: GET /library', () => {
  useCleanDatabase();
  const app = useTestApp();
  let other: Person;

  before(async () => {
    other = await people.namedPerson(app.client, 'shelf_other');
  });

  describe('GET /library', () => {
    let reader: Person;
    const games: Game[] = [];
    before(async () => {
      reader = await people.namedPerson(app.client, 'lib_reader');
      for (let i = 0; i < 5; i += 1) games.push(await people.catalogGame({ name: `Shelf ${i}`, platform_ids: [6] }));
      const rows = [
        { status: 'COMPLETED', rating: 90, liked: true },
        { status: 'WISHLIST', rating: null },
        { status: 'PLAYING', playing: true, rating: 70 },
        { status: null, ignored: true, rating: 20 },
        { status: 'BACKLOG', backlog: true, wishlist: true, rating: null },
      ];
      for (const [i, fields] of rows.entries()) {
        await people.libraryEntry(reader.account.id, {
          game_id: games[i].id,
          ...fields,
          updated_at: new Date(Date.UTC(2026, 5, 1 + i)),
          created_at: new Date(Date.UTC(2026, 0, 1 + i)),
        });
      }
      // The catalog lost this one.
      await people.libraryEntry(reader.account.id, { game_id: 8765432, updated_at: new Date(Date.UTC(2025, 0, 1)) });
      await people.libraryEntry(other.account.id, { game_id: games[0].id });
    });

    const ids = (res: { body: { data: Array<{ game_id: number }> } }) => res.body.data.map((e) => e.game_id);

    it('answers every entry of the owner, ignored ones included, latest change first', async () => {
      const res = await reader.site.get('/api/v1/library');
      expect(res.status, res.text).to.equal(200);
      expect(ids(res)).to.deep.equal([games[4].id, games[3].id, games[2].id, games[1].id, games[0].id, 8765432]);
      expect(res.body.page).to.deep.equal({ number: 1, size: 100, total_items: 6, total_pages: 1, has_more: false });
      expect(res.body).to.not.have.property('games');
      expect(res.body.data[0]).to.have.keys(people.ENTRY_KEYS);
      expect(res.body.data[1]).to.include({ ignored: true, rating: 20 });
      expect(res.body.data[5]).to.include({ game: null });
      expect(res.body.data[0]).to.include({
        created_at: '2026-01-05T00:00:00.000Z',
        updated_at: '2026-06-05T00:00:00.000Z',
      });
    });

    it('filters, sorts by rating, pages and adds the games', async () => {
      const get = async (query: string) => ids(await reader.site.get(`/api/v1/library?${query}`));
      expect(await get('ignored=true')).to.deep.equal([games[3].id]);
      expect(await get('ignored=false&limit=2')).to.deep.equal([games[4].id, games[2].id]);
      expect(await get('wishlist=true')).to.deep.equal([games[4].id, games[1].id]);
      expect(await get('status=PLAYING&playing=true')).to.deep.equal([games[2].id]);
      expect(await get('liked=1')).to.deep.equal([games[0].id]);
      expect(await get('backlog=true')).to.deep.equal([games[4].id]);
      expect(await get('sort=rating')).to.deep.equal([
        games[0].id,
        games[2].id,
        games[3].id,
        games[4].id,
        games[1].id,
        8765432,
      ]);
      const paged = await reader.site.get('/api/v1/library?limit=4&page=2&games=1');
      expect(ids(paged)).to.deep.equal([games[0].id, 8765432]);
      expect(paged.body.page).to.deep.equal({ number: 2, size: 4, total_items: 6, total_pages: 2, has_more: false });
      expect(paged.body.games).to.deep.equal({
        [games[0].id]: { name: 'Shelf 0', cover: null, slug: games[0].slug },
        8765432: null,
      });
      const past = await reader.site.get('/api/v1/library?page=9');
      expect(past.body.data).to.deep.equal([]);
      expect(past.body.page.total_items).to.equal(6);
    });

    for (const [query, field, reason] of [
      ['limit=1001', 'limit', 'out_of_range'],
      ['limit=0', 'limit', 'out_of_range'],
      ['page=1001', 'page', 'out_of_range'],
      ['status=FINISHED', 'status', 'not_allowed'],
      ['ignored=maybe', 'ignored', 'wrong_type'],
      ['sort=name', 'sort', 'not_allowed'],
      ['games=2', 'games', 'out_of_range'],
    ] as const) {
      it(`refuses ${query} with 400 ${reason}`, async () => {
        const res = await reader.site.get(`/api/v1/library?${query}`);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
      });
    }
  });
});
