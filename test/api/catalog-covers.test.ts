// Game covers (shared/content/game-covers.ts): a catalog game keeps upstream's cover image id, and every answer
// that shows the game carries the image's URL: the catalog's rows (`cover_url`, from the web process's copy
// too), a game's card on entries, sessions, reviews and history (`cover_url`), the `games=1` maps of the
// library reads (`cover`) and the catalog rows of journeys. A game without a cover answers null.
import { expect } from 'chai';
import { browseFromCopy, readCatalogCopy } from '../../shared/catalog/copy-browse.js';
import { COVER_URL_PREFIX, coverImageId, coverUrl } from '../../shared/content/game-covers.js';
import type { GameSearch } from '../../shared/catalog/search-parameters.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { view } from '../helpers/history.js';
import { catalogGame, journey, namedPerson, type CatalogGame } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

const WITCHER_COVER = 'https://images.igdb.com/igdb/image/upload/t_cover_big/co1wyy.jpg';
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

describe('game covers', () => {
  useCleanDatabase();
  const app = useTestApp();
  let covered: CatalogGame;
  let bare: CatalogGame;

  before(async () => {
    // Known to someone, so a browse without filters shows them.
    covered = await catalogGame({
      name: 'The Witcher 3',
      slug: 'the-witcher-3',
      cover_image_id: 'co1wyy',
      type: 0,
      popularity: 20,
    });
    bare = await catalogGame({ name: 'The Witness', slug: 'the-witness', type: 0, popularity: 10 });
  });

  describe('the URL', () => {
    it('is the image host’s, at the card size, built from the stored id; null without one', () => {
      expect(coverUrl('co1wyy')).to.equal(WITCHER_COVER);
      expect(coverUrl('co1wyy')?.startsWith(COVER_URL_PREFIX)).to.equal(true);
      expect(coverUrl(null)).to.equal(null);
      expect(coverUrl(undefined)).to.equal(null);
    });

    it('takes only ids that stay inside their path segment', () => {
      expect(coverImageId('co1wyy')).to.equal('co1wyy');
      expect(coverImageId('nocover_qhhlj6')).to.equal('nocover_qhhlj6');
      for (const odd of ['', '../x', 'co1/wyy', 'co1wyy.png', 'co1wyy?x=1', '%2e', 'x'.repeat(65), 42, null, {}]) {
        expect(coverImageId(odd), String(odd)).to.equal(null);
      }
    });

    it('is held to the same shape by the database', async () => {
      for (const odd of ['../x', 'co1/wyy', '', 'x'.repeat(65)]) {
        const refused = await catalogGame({ cover_image_id: odd }).then(
          () => null,
          (error: { constraint?: string }) => error.constraint,
        );
        expect(refused, odd).to.equal('games_cover_image_id_shape');
      }
    });
  });

  describe('the catalog', () => {
    it('answers cover_url on a browse from the web process’s copy, and null for a game without a cover', async () => {
      await readCatalogCopy(db());
      // The copy answers this browse (the page's rows are read with the catalog's version).
      const fromCopy = await browseFromCopy(db(), { page: 1 } as GameSearch, { limit: 24, offset: 0 }, '2026-11-26');
      expect(fromCopy!.rows.map((row) => [row.slug, row.cover_image_id])).to.deep.equal([
        ['the-witcher-3', 'co1wyy'],
        ['the-witness', null],
      ]);
      const res = await app.client.get('/api/v1/games');
      expect(res.status).to.equal(200);
      expect(
        res.body.data.map((game: { slug: string; cover_url: string | null }) => [game.slug, game.cover_url]),
      ).to.deep.equal([
        ['the-witcher-3', WITCHER_COVER],
        ['the-witness', null],
      ]);
    });

    it('answers cover_url on a text search and on one game', async () => {
      const found = await app.client.get('/api/v1/games?q=witcher');
      expect(found.body.data).to.have.length(1);
      expect(found.body.data[0]).to.include({ slug: 'the-witcher-3', cover_url: WITCHER_COVER });
      const short = await app.client.get('/api/v1/games?q=wi');
      expect(short.body.data.map((game: { cover_url: string | null }) => game.cover_url)).to.have.members([
        WITCHER_COVER,
        null,
      ]);
      const one = await app.client.get('/api/v1/games/the-witcher-3');
      expect(one.body.data).to.include({ id: covered.id, cover_url: WITCHER_COVER });
      expect((await app.client.get('/api/v1/games/the-witness')).body.data.cover_url).to.equal(null);
    });

    it('follows a change of the stored id', async () => {
      const later = await catalogGame({ name: 'Later cover', slug: 'later-cover' });
      expect((await app.client.get('/api/v1/games/later-cover')).body.data.cover_url).to.equal(null);
      await db()('games').where({ id: later.id }).update({ cover_image_id: 'co2abc' });
      const res = await app.client.get('/api/v1/games/later-cover');
      expect(res.body.data.cover_url).to.equal(`${COVER_URL_PREFIX}co2abc.jpg`);
    });
  });

  describe('a game’s card and the games=1 maps', () => {
    it('shows the cover on library entries and in both libraries’ games=1', async () => {
      const owner = await namedPerson(app.client, 'cover_owner');
      const put = await owner.site.put(`/api/v1/library/${covered.id}`, { status: 'PLAYING' });
      expect(put.status, put.text).to.equal(201);
      expect(put.body.data.game).to.deep.equal({
        slug: 'the-witcher-3',
        name: 'The Witcher 3',
        cover_url: WITCHER_COVER,
      });
      const patched = await owner.site.patch(`/api/v1/library/${covered.id}`, { rating: 90 });
      expect(patched.body.data.game.cover_url).to.equal(WITCHER_COVER);
      await owner.site.put(`/api/v1/library/${bare.id}`, { status: 'BACKLOG' });
      expect((await owner.site.get(`/api/v1/library/${bare.id}`)).body.data.game.cover_url).to.equal(null);

      const own = await owner.site.get('/api/v1/library?games=1');
      expect(own.status, own.text).to.equal(200);
      const cards = Object.fromEntries(
        own.body.data.map((entry: { game_id: number; game: { cover_url: string } }) => [
          entry.game_id,
          entry.game.cover_url,
        ]),
      );
      expect(cards).to.deep.equal({ [covered.id]: WITCHER_COVER, [bare.id]: null });
      const expected = {
        [covered.id]: { name: 'The Witcher 3', cover: WITCHER_COVER, slug: 'the-witcher-3' },
        [bare.id]: { name: 'The Witness', cover: null, slug: 'the-witness' },
      };
      expect(own.body.games).to.deep.equal(expected);
      const visitor = await app.client.get('/api/v1/profiles/cover_owner/library?games=1');
      expect(visitor.status, visitor.text).to.equal(200);
      expect(visitor.body.games).to.deep.equal(expected);
    });

    it('shows the cover on a review and on a play session', async () => {
      const author = await namedPerson(app.client, 'cover_author');
      const made = await author.site.post('/api/v1/reviews', { game_id: covered.id, body: 'Gwent.' });
      expect(made.status, made.text).to.equal(201);
      expect(made.body.data.game).to.deep.equal({
        slug: 'the-witcher-3',
        name: 'The Witcher 3',
        cover_url: WITCHER_COVER,
      });
      const read = await app.client.get(`/api/v1/reviews/${made.body.data.id}`);
      expect(read.body.data.game.cover_url).to.equal(WITCHER_COVER);

      const session = await author.site.post('/api/v1/journal/sessions', {
        game_id: covered.id,
        started_at: hoursAgo(2),
        ended_at: hoursAgo(1),
      });
      expect(session.status, session.text).to.equal(201);
      expect(session.body.data.game.cover_url).to.equal(WITCHER_COVER);
      const listed = await author.site.get('/api/v1/journal/sessions');
      expect(listed.body.data[0].game).to.deep.equal({
        slug: 'the-witcher-3',
        name: 'The Witcher 3',
        cover_url: WITCHER_COVER,
      });
    });

    it('shows the cover in the history and on a journey’s catalog row', async () => {
      const reader = await namedPerson(app.client, 'cover_reader');
      await view(reader, '/api/v1/games/the-witcher-3', { game: covered.id });
      const history = await reader.site.get('/api/v1/history');
      expect(history.body.data[0].game).to.deep.equal({
        id: covered.id,
        slug: 'the-witcher-3',
        name: 'The Witcher 3',
        cover_url: WITCHER_COVER,
      });

      await journey(reader.account.id, { game_id: covered.id, title: 'Death march' });
      const runs = await app.client.get('/api/v1/profiles/cover_reader/journeys');
      expect(runs.status, runs.text).to.equal(200);
      expect(runs.body.data[0].game).to.include({ slug: 'the-witcher-3', cover_url: WITCHER_COVER });
    });
  });
});
