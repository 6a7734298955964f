// Genre names are read once a minute per process (shared/catalog/games.ts): a page of games asks the
// database only for genres it has not read in the last minute.
import { expect } from 'chai';
import { forgetGenreNames, loadGenreNames } from '../../shared/catalog/games.js';
import { db } from '../../shared/platform/db/knex.js';
import type { GameRow } from '../../shared/catalog/rows.js';
import { useCleanDatabase } from '../helpers/clean-database.js';

const row = (genre_ids: number[]) => ({ genre_ids }) as GameRow;

describe('genre names of a page of games', () => {
  useCleanDatabase();

  it('reads a genre once a minute, and a renamed one after that minute', async () => {
    await db()('catalog_genres').insert([
      { id: 7, name: 'Puzzle' },
      { id: 8, name: 'Racing' },
    ]);
    const now = Date.now();
    const queries: string[] = [];
    const seen = (query: { sql: string }) => queries.push(query.sql);
    db().on('query', seen);
    try {
      expect([...(await loadGenreNames(db(), [row([7])], now))]).to.deep.equal([[7, 'Puzzle']]);
      await db()('catalog_genres').where({ id: 7 }).update({ name: 'Logic' });
      queries.length = 0;
      // Within the minute: 7 from memory, only 8 asked for; an unknown id is simply left out.
      const page = await loadGenreNames(db(), [row([7, 8]), row([99])], now + 1000);
      expect([...page]).to.deep.equal([
        [7, 'Puzzle'],
        [8, 'Racing'],
      ]);
      expect(queries).to.have.length(1);
      queries.length = 0;
      expect([...(await loadGenreNames(db(), [row([7, 8])], now + 2000))]).to.have.length(2);
      expect(queries).to.have.length(0);
      expect((await loadGenreNames(db(), [row([7])], now + 60_000)).get(7)).to.equal('Logic');
      forgetGenreNames();
      await db()('catalog_genres').where({ id: 8 }).update({ name: 'Driving' });
      expect((await loadGenreNames(db(), [row([8])], now + 61_000)).get(8)).to.equal('Driving');
    } finally {
      db().off('query', seen);
    }
  });
});
