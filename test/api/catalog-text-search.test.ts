// GET /games?q= past the text as typed: misspelt words corrected from the words titles use, words in any
// order, words no title holds, short texts, ordered texts read either way, and the title words kept by the
// triggers on games; each answered by the database and by the web process's copy of the catalog.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { useTestApp } from '../helpers/test-app.js';
import { catalogChanged, eachCatalogWay } from '../helpers/catalog-ways.js';

let counter = 0;
async function game(name: string, fields: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const [row] = await db()('games')
    .insert({ slug, name, type: 0, popularity: 10 - counter, igdb_id: 500000 + counter, ...fields })
    .returning('id');
  return row.id;
}

const slugs = (res: { body: { data: Array<{ slug: string }> } }) => res.body.data.map((g) => g.slug);
const words = async () =>
  Object.fromEntries(
    (await db()('catalog_title_words').select('word', 'games')).map((row: { word: string; games: number }) => [
      row.word,
      row.games,
    ]),
  );

describe('catalog text search (GET /games?q=)', () => {
  useCleanDatabase();
  const app = useTestApp();

  before(async () => {
    await game('Dark Souls', { release_date: '2011-09-22' });
    await game('Dark Souls II', { release_date: '2014-03-11' });
    await game('Souls of the Dark Forest', { release_date: '2001-01-01' });
    await game('Lighthouse Keeper', { release_date: '2005-05-05' });
    await game('Light Crusader', { release_date: '1995-05-05' });
    await game('Forest of the Dark', { popularity: 50 });
    await game('Ys', { popularity: 1 });
    await game('Ys Origin', { popularity: 40 });
    await game('!!!', { slug: 'bangs' });
  });

  it('keeps the words of every name with how many names hold each', async () => {
    const known = await words();
    expect(known).to.include({ dark: 4, forest: 2, souls: 3, ii: 1, lighthouse: 1, light: 1, crusader: 1 });
  });

  eachCatalogWay(() => {
    it('corrects a misspelt word from the words titles use', async () => {
      const res = await app.client.get('/api/v1/games?q=crusadr');
      expect(res.status).to.equal(200);
      expect(slugs(res)).to.deep.equal(['light-crusader']);
    });

    it('finds names holding every word in any order, those holding them together first', async () => {
      const res = await app.client.get('/api/v1/games?q=souls dark');
      expect(slugs(res)).to.deep.equal(['dark-souls', 'dark-souls-ii', 'souls-of-the-dark-forest']);
      // "Forest of the Dark" is the more popular, but only the other holds "dark forest" as typed.
      const together = await app.client.get('/api/v1/games?q=darrk forest');
      expect(slugs(together)).to.deep.equal(['souls-of-the-dark-forest', 'forest-of-the-dark']);
      const misspelt = await app.client.get('/api/v1/games?q=darrk soulss');
      expect(slugs(misspelt)).to.deep.equal(['dark-souls', 'dark-souls-ii', 'souls-of-the-dark-forest']);
    });

    it('answers an empty page when a word is in no title and like none', async () => {
      const res = await app.client.get('/api/v1/games?q=qxzvwq');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.page).to.include({ total_items: 0, has_more: false });
      expect(slugs(await app.client.get('/api/v1/games?q=dark qxzvwq'))).to.deep.equal([]);
    });

    it('matches a text too short for a trigram at the start of a word', async () => {
      expect(slugs(await app.client.get('/api/v1/games?q=cr'))).to.deep.equal(['light-crusader']);
      // The name that is the text first, then by popularity.
      expect(slugs(await app.client.get('/api/v1/games?q=ys'))).to.deep.equal(['ys', 'ys-origin']);
      // "ou" is inside "Souls" but starts no word of any name.
      expect(slugs(await app.client.get('/api/v1/games?q=ou'))).to.deep.equal([]);
    });

    it('finds a text with no letter or digit only as a whole name', async () => {
      expect(slugs(await app.client.get('/api/v1/games?q=!!!'))).to.deep.equal(['bangs']);
      expect(slugs(await app.client.get('/api/v1/games?q=!!'))).to.deep.equal([]);
      expect(slugs(await app.client.get('/api/v1/games?q=%25'))).to.deep.equal([]);
    });

    it('orders a text by a sort of its own and pages past its matches', async () => {
      const oldest = await app.client.get('/api/v1/games?q=souls&sort=oldest');
      expect(slugs(oldest)).to.deep.equal(['souls-of-the-dark-forest', 'dark-souls', 'dark-souls-ii']);
      const past = await app.client.get('/api/v1/games?q=souls&sort=oldest&page=2');
      expect(past.body.data).to.deep.equal([]);
      expect(past.body.page).to.include({ total_items: 3, has_more: false });
    });

    it('finds an added or renamed game by its new name, and a misspelling of it', async () => {
      const id = await game(`Quuxly Voyage ${counter}`);
      await db()('games')
        .where({ id })
        .update({ name: `Quuxly Odyssey ${counter}` });
      await catalogChanged();
      const found = await app.client.get('/api/v1/games?q=odysey');
      expect(found.body.data.map((g: { id: number }) => g.id)).to.include(id);
      expect(slugs(await app.client.get(`/api/v1/games?q=quuxly odyssey ${counter}`))).to.have.length(1);
      await db()('games').where({ id }).delete();
      await catalogChanged();
      expect(slugs(await app.client.get(`/api/v1/games?q=quuxly odyssey ${counter}`))).to.deep.equal([]);
    });
  });

  it('adds the words of an added or renamed game', async () => {
    const id = await game('Quuxly Voyage');
    expect(await words()).to.include({ quuxly: 1, voyage: 1 });
    await db()('games').where({ id }).update({ name: 'Quuxly Odyssey' });
    expect(await words()).to.include({ odyssey: 1 });
    expect(slugs(await app.client.get('/api/v1/games?q=odysey'))).to.deep.equal(['quuxly-voyage']);
  });
});
