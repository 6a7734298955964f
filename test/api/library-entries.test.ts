// The owner's library entries (DECISIONS: Library): GET/PUT/PATCH/DELETE /library/{game}. PUT's 201 and 200
// (created_at kept), PATCH's partial change, the data's refusals, the fixed segments, parallel creation of
// one entry, and who may call. GET /library: library-own-read.test.ts; feed items and the 20,000-entry
// limit: library-feed-and-limit.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Person = people.NamedPerson;
type Game = people.CatalogGame;

describe('the owner’s library entries', () => {
  useCleanDatabase();
  const app = useTestApp();
  let owner: Person;
  let other: Person;
  let game: Game;
  const path = (g: { id: number } | string) => `/api/v1/library/${typeof g === 'string' ? g : g.id}`;

  before(async () => {
    owner = await people.namedPerson(app.client, 'shelf_owner');
    other = await people.namedPerson(app.client, 'shelf_other');
    game = await people.catalogGame({ name: 'Celeste', slug: 'celeste', platform_ids: [6, 48] });
  });

  describe('PUT /library/{game}', () => {
    it('creates the entry with 201, the defaults for what is left out, and the game’s card', async () => {
      const res = await owner.site.put(path(game), { status: 'PLAYING', rating: 80, platform_id: 48 });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.have.keys(people.ENTRY_KEYS);
      expect(res.body.data).to.deep.include({
        game_id: game.id,
        game: { slug: 'celeste', name: 'Celeste', cover_url: null },
        status: 'PLAYING',
        playing: false,
        backlog: false,
        wishlist: false,
        liked: false,
        ignored: false,
        rating: 80,
        platform_id: 48,
        finished_at: null,
      });
      expect(res.body.data.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('replaces it with 200: omitted fields go back to their defaults and created_at stays', async () => {
      const before = (await owner.site.get(path(game))).body.data;
      const finished = new Date(Date.now() - 86_400_000).toISOString();
      const res = await owner.site.put(path('celeste'), { status: 'COMPLETED', liked: true, finished_at: finished });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.include({
        status: 'COMPLETED',
        liked: true,
        rating: null,
        platform_id: null,
        finished_at: finished,
        created_at: before.created_at,
      });
      expect(res.body.data.updated_at > before.updated_at).to.equal(true);
      expect(await db()('library_entries').where({ account_id: owner.account.id })).to.have.length(1);
    });

    it('takes an empty body as the entry of defaults, and a finish up to 5 minutes ahead', async () => {
      const other1 = await people.catalogGame({ platform_ids: [6] });
      const res = await owner.site.put(path(other1), undefined);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.deep.include({ status: null, rating: null, liked: false });
      const soon = new Date(Date.now() + 2 * 60_000).toISOString();
      const ok = await owner.site.put(path(other1), { finished_at: soon, status: null, rating: 0 });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.data).to.include({ finished_at: soon, rating: 0 });
    });

    for (const [body, field, reason] of [
      [{ platform_id: 7 }, 'platform_id', 'fields_invalid'],
      // A day ahead: these bodies are made when the file loads, and a long run reaches a test minutes later.
      [{ finished_at: new Date(Date.now() + 24 * 3_600_000).toISOString() }, 'finished_at', 'fields_invalid'],
      [{ finished_at: 'yesterday' }, 'finished_at', 'bad_format'],
      [{ rating: 101 }, 'rating', 'out_of_range'],
      [{ rating: -1 }, 'rating', 'out_of_range'],
      [{ rating: 7.5 }, 'rating', 'wrong_type'],
      [{ rating: '70' }, 'rating', 'wrong_type'],
      [{ status: 'FINISHED' }, 'status', 'not_allowed'],
      [{ status: 3 }, 'status', 'wrong_type'],
      [{ playing: 'yes' }, 'playing', 'wrong_type'],
      [{ ignored: null }, 'ignored', 'wrong_type'],
      [{ platform_id: 0 }, 'platform_id', 'out_of_range'],
      [{ note: 'hi' }, 'note', 'unknown_field'],
    ] as const) {
      it(`refuses ${JSON.stringify(body)} with 400 ${reason} naming ${field}, and writes nothing`, async () => {
        const fresh = await people.catalogGame({ platform_ids: [6] });
        const res = await owner.site.put(path(fresh), body);
        expect(res.status, res.text).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
        expect(await db()('library_entries').where({ game_id: fresh.id })).to.have.length(0);
      });
    }

    it('refuses a body that is not an object', async () => {
      const res = await owner.site.put(path(game), [1, 2]);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', reason: 'wrong_type' });
    });

    it('answers 404 game_not_found for an unknown id or slug', async () => {
      for (const name of ['987654', 'no-such-game', '99999999999']) {
        const res = await owner.site.put(path(name), { rating: 5 });
        expect(res.status, name).to.equal(404);
        expect(res.body.error).to.include({ code: 'not_found', reason: 'game_not_found' });
      }
    });

    it('makes one entry of ten parallel PUTs of a new game, and every one of them succeeds', async () => {
      const fresh = await people.catalogGame({ platform_ids: [6] });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => owner.site.put(path(fresh), { rating: i * 10 })),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses, answers.map((res) => res.text).join('\n')).to.deep.equal([
        200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
      ]);
      const rows = await db()('library_entries').where({ account_id: owner.account.id, game_id: fresh.id });
      expect(rows).to.have.length(1);
      const created = answers.map((res) => res.body.data.created_at);
      expect(new Set(created).size).to.equal(1);
      // Each change of rating coalesces into the one item of the entry.
      expect(await db()('activity_items').where({ subject_id: rows[0].id })).to.have.length(1);
    });
  });

  describe('the fixed segments and games named by id', () => {
    it('reaches the games whose slugs are copies and import by their ids only', async () => {
      const copies = await people.catalogGame({ name: 'Copies', slug: 'copies', platform_ids: [6] });
      const imported = await people.catalogGame({ name: 'Import', slug: 'import', platform_ids: [6] });
      for (const g of [copies, imported]) {
        const put = await owner.site.put(path(g), { rating: 50 });
        expect(put.status, put.text).to.equal(201);
        expect(put.body.data.game).to.deep.include({ slug: g.slug });
        expect((await owner.site.get(path(g))).body.data.rating).to.equal(50);
      }
      // A slug that is the name of an object's own method is a slug like any other.
      const built = await people.catalogGame({ name: 'Constructor', slug: 'constructor', platform_ids: [6] });
      const put = await owner.site.put('/api/v1/library/constructor', { rating: 70 });
      expect(put.status, put.text).to.equal(201);
      expect(put.body.data.game_id).to.equal(built.id);
      const listed = await owner.site.get('/api/v1/library/copies');
      expect(listed.status).to.equal(200);
      expect(listed.body).to.have.property('next_cursor');

      for (const [method, name, allow] of [
        ['PUT', 'copies', 'GET, POST'],
        ['PATCH', 'copies', 'GET, POST'],
        ['DELETE', 'copies', 'GET, POST'],
        ['GET', 'import', 'POST'],
        ['PUT', 'import', 'POST'],
        ['DELETE', 'import', 'POST'],
      ] as const) {
        const res = await owner.site.request(
          method,
          path(name),
          method === 'GET' || method === 'DELETE' ? {} : { body: {} },
        );
        expect(res.status, `${method} ${name}`).to.equal(405);
        expect(res.body.error.code).to.equal('method_not_allowed');
        expect(res.headers.get('allow')).to.equal(allow);
      }
      expect((await owner.site.get(path(copies))).body.data.rating).to.equal(50);
    });

    it('still reaches, by id, an entry whose game the catalog lost', async () => {
      await people.libraryEntry(owner.account.id, { game_id: 7654321, rating: 40 });
      const got = await owner.site.get(path('7654321'));
      expect(got.status, got.text).to.equal(200);
      expect(got.body.data).to.include({ game_id: 7654321, game: null, rating: 40 });
      const patched = await owner.site.patch(path('7654321'), { rating: 45 });
      expect(patched.status).to.equal(200);
      expect(patched.body.data).to.include({ rating: 45, game: null });
      const platform = await owner.site.patch(path('7654321'), { platform_id: 6 });
      expect(platform.status).to.equal(400);
      expect(platform.body.error).to.include({ reason: 'fields_invalid', field: 'platform_id' });
      expect((await owner.site.delete(path('7654321'))).body).to.deep.equal({
        data: { game_id: 7654321, deleted: true },
      });
      const gone = await owner.site.get(path('7654321'));
      expect(gone.status).to.equal(404);
      expect(gone.body.error.reason).to.equal('game_not_found');
    });
  });

  describe('GET, PATCH and DELETE /library/{game}', () => {
    let shelf: Game;
    before(async () => {
      shelf = await people.catalogGame({ name: 'Hades', slug: 'hades', platform_ids: [6, 130] });
    });

    it('answers 404 entry_not_found when the library has no entry of a known game', async () => {
      for (const res of [
        await owner.site.get(path(shelf)),
        await owner.site.patch(path(shelf), { rating: 5 }),
        await owner.site.patch(path('hades'), {}),
        await owner.site.delete(path(shelf)),
      ]) {
        expect(res.status, res.text).to.equal(404);
        expect(res.body.error).to.include({ code: 'not_found', reason: 'entry_not_found' });
      }
      const unknown = await owner.site.get(path('no-such-game'));
      expect(unknown.body.error).to.include({ code: 'not_found', reason: 'game_not_found' });
    });

    it('changes only the fields a PATCH sends; an empty PATCH changes nothing', async () => {
      await owner.site.put(path(shelf), { status: 'PLAYING', playing: true, rating: 70, platform_id: 130 });
      const before = (await owner.site.get(path('hades'))).body.data;
      const res = await owner.site.patch(path(shelf), { rating: 90, liked: true });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({
        ...before,
        rating: 90,
        liked: true,
        updated_at: res.body.data.updated_at,
      });
      expect(res.body.data.updated_at > before.updated_at).to.equal(true);

      const empty = await owner.site.patch(path(shelf), {});
      expect(empty.status).to.equal(200);
      expect(empty.body.data).to.deep.equal(res.body.data);

      const cleared = await owner.site.patch(path(shelf), { platform_id: null, status: null });
      expect(cleared.body.data).to.include({ platform_id: null, status: null, playing: true, rating: 90 });
    });

    it('refuses a PATCH with the PUT’s refusals', async () => {
      for (const [body, field, reason] of [
        [{ platform_id: 48 }, 'platform_id', 'fields_invalid'],
        [{ finished_at: new Date(Date.now() + 3_600_000).toISOString() }, 'finished_at', 'fields_invalid'],
        [{ rating: 100.5 }, 'rating', 'wrong_type'],
        [{ status: 'playing' }, 'status', 'not_allowed'],
        [{ game_id: 5 }, 'game_id', 'unknown_field'],
      ] as const) {
        const res = await owner.site.patch(path(shelf), body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error).to.include({ field, reason });
      }
    });

    it('shows an entry only to its owner: another account’s read of the game is 404', async () => {
      const res = await other.site.get(path(shelf));
      expect(res.status).to.equal(404);
      expect(res.body.error.reason).to.equal('entry_not_found');
      const patch = await other.site.patch(path(shelf), { rating: 1 });
      expect(patch.status).to.equal(404);
      expect((await other.site.delete(path(shelf))).status).to.equal(404);
      expect((await owner.site.get(path(shelf))).body.data.rating).to.equal(90);
    });

    it('deletes the entry with its feed items, answering { game_id, deleted: true }', async () => {
      const entry = await db()('library_entries').where({ account_id: owner.account.id, game_id: shelf.id }).first();
      expect(await db()('activity_items').where({ subject_id: entry.id })).to.have.length.greaterThan(0);
      const res = await owner.site.delete(path('hades'));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ data: { game_id: shelf.id, deleted: true } });
      expect(await db()('activity_items').where({ subject_id: entry.id })).to.have.length(0);
      expect((await owner.site.get(path(shelf))).status).to.equal(404);
    });
  });

  describe('who may call', () => {
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

    it('needs a caller', async () => {
      const anonymous = new SiteClient(app.client);
      for (const res of [
        await anonymous.get('/api/v1/library'),
        await anonymous.get(path(game)),
        await anonymous.put(path(game), {}),
        await anonymous.patch(path(game), {}),
        await anonymous.delete(path(game)),
      ]) {
        expect(res.status).to.equal(401);
        expect(res.body.error.code).to.equal('unauthorized');
      }
    });

    it('reads with library.read and writes with library.write, each on its own allowance', async () => {
      const person = await people.namedPerson(app.client, 'key_shelf');
      const fresh = await people.catalogGame({ platform_ids: [6] });
      const { token: reads } = await appWithKey(person.account.id, ['library.read']);
      const { token: writes } = await appWithKey(person.account.id, ['library.write']);

      for (const [method, body] of [
        ['PUT', {}],
        ['PATCH', {}],
        ['DELETE', undefined],
      ] as const) {
        const refused = await app.client.request(method, path(fresh), { body, ...bearer(reads) });
        expect(refused.status, method).to.equal(403);
        expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'library.write' });
      }
      const put = await app.client.put(path(fresh), { rating: 30 }, bearer(writes));
      expect(put.status, put.text).to.equal(201);
      expect(put.headers.get('x-ratelimit-resource')).to.equal('write');
      const patch = await app.client.patch(path(fresh), { rating: 35 }, bearer(writes));
      expect(patch.status).to.equal(200);

      for (const target of ['/api/v1/library', path(fresh)]) {
        const refused = await app.client.get(target, bearer(writes));
        expect(refused.status).to.equal(403);
        expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'library.read' });
        const read = await app.client.get(target, bearer(reads));
        expect(read.status).to.equal(200);
        expect(read.headers.get('x-ratelimit-resource')).to.equal('read');
      }
      expect((await app.client.get(path(fresh), bearer(reads))).body.data.rating).to.equal(35);
      const deleted = await app.client.delete(path(fresh), bearer(writes));
      expect(deleted.status).to.equal(200);

      // A key acts for its own account only.
      const { token: theirs } = await appWithKey(other.account.id, ['library.read', 'library.write']);
      await person.site.put(path(fresh), { rating: 1 });
      expect((await app.client.get(path(fresh), bearer(theirs))).status).to.equal(404);
      expect((await app.client.delete(path(fresh), bearer(theirs))).status).to.equal(404);
    });
  });
});
