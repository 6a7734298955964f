// The owner's library entries (DECISIONS: Library): GET /library and GET/PUT/PATCH/DELETE /library/{game}.
// PUT's 201 and 200 (created_at kept), PATCH's partial change, the data's refusals, the fixed segments,
// parallel creation of one entry, the 20,000-entry limit under parallel creators, the feed item and its
// 10-minute coalescing, and who may call.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Person = Awaited<ReturnType<typeof people.namedPerson>>;
type Game = Awaited<ReturnType<typeof people.catalogGame>>;

const ENTRY_KEYS = [
  'game_id',
  'game',
  'status',
  'playing',
  'backlog',
  'wishlist',
  'liked',
  'ignored',
  'rating',
  'platform_id',
  'finished_at',
  'created_at',
  'updated_at',
];

const entryItems = (accountId: string) =>
  db()('activity_items').where({ account_id: accountId, kind: 'entry' }).orderBy('created_at');

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
      expect(res.body.data).to.have.keys(ENTRY_KEYS);
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
      [{ finished_at: new Date(Date.now() + 10 * 60_000).toISOString() }, 'finished_at', 'fields_invalid'],
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

  describe('feed items', () => {
    it('writes one item on creation and coalesces changes within 10 minutes; a later change adds one', async () => {
      const person = await people.namedPerson(app.client, 'feed_shelf');
      const fresh = await people.catalogGame({ platform_ids: [6] });
      await person.site.put(path(fresh), { status: 'PLAYING' });
      const [first] = await entryItems(person.account.id);
      expect(first).to.include({ kind: 'entry', game_id: fresh.id, visibility: 'PUBLIC' });

      await person.site.patch(path(fresh), { rating: 60 });
      await person.site.put(path(fresh), { status: 'COMPLETED', rating: 60 });
      const coalesced = await entryItems(person.account.id);
      expect(coalesced).to.have.length(1);
      expect(coalesced[0].id).to.equal(first.id);
      expect(new Date(coalesced[0].created_at).getTime()).to.be.at.least(new Date(first.created_at).getTime());

      await db()('activity_items')
        .where({ id: first.id })
        .update({ created_at: db().raw("created_at - interval '11 minutes'") });
      // Neither flags, platform nor finish tell the feed.
      await person.site.patch(path(fresh), { liked: true, backlog: true, platform_id: 6 });
      expect(await entryItems(person.account.id)).to.have.length(1);
      await person.site.patch(path(fresh), { status: 'COMPLETED' });
      expect(await entryItems(person.account.id)).to.have.length(1);

      await person.site.patch(path(fresh), { rating: 65 });
      const items = await entryItems(person.account.id);
      expect(items).to.have.length(2);
      expect(items[0].id).to.equal(first.id);

      // The feed shows it to a stranger.
      const feed = await new SiteClient(app.client).get('/api/v1/activity?profile=feed_shelf');
      expect(feed.status, feed.text).to.equal(200);
      expect(feed.body.data.map((item: { kind: string }) => item.kind)).to.include('entry');
    });

    it('writes no item for an ignored entry, created or changed', async () => {
      const person = await people.namedPerson(app.client, 'feed_ignorer');
      const fresh = await people.catalogGame({ platform_ids: [6] });
      expect((await person.site.put(path(fresh), { ignored: true, status: 'DROPPED' })).status).to.equal(201);
      await person.site.patch(path(fresh), { rating: 10, status: 'PLAYING' });
      expect(await entryItems(person.account.id)).to.have.length(0);
      // Ignored no more: the next change of status tells the feed.
      await person.site.patch(path(fresh), { ignored: false });
      expect(await entryItems(person.account.id)).to.have.length(0);
      await person.site.patch(path(fresh), { status: 'COMPLETED' });
      expect(await entryItems(person.account.id)).to.have.length(1);
    });
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
      expect(res.body.data[0]).to.have.keys(ENTRY_KEYS);
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

  describe('the 20,000-entry limit', () => {
    let full: Person;
    before(async () => {
      full = await people.namedPerson(app.client, 'full_shelf');
      // 19,999 entries of games the catalog does not know (the limit counts entries, not games).
      await db().raw(
        `INSERT INTO library_entries (account_id, game_id) SELECT ?, 1000000 + n FROM generate_series(1, 19999) n`,
        [full.account.id],
      );
    });

    it('lets exactly one of two parallel creators take the last place; the other is 409 library_full', async () => {
      const [a, b] = [await people.catalogGame({ platform_ids: [6] }), await people.catalogGame({ platform_ids: [6] })];
      const answers = await Promise.all([full.site.put(path(a), { rating: 1 }), full.site.put(path(b), { rating: 2 })]);
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses, answers.map((res) => res.text).join('\n')).to.deep.equal([201, 409]);
      const refused = answers.find((res) => res.status === 409)!;
      expect(refused.body.error).to.include({ code: 'conflict', reason: 'library_full', limit: 20000, count: 20000 });
      const [{ count }] = await db()('library_entries').where({ account_id: full.account.id }).count({ count: '*' });
      expect(Number(count)).to.equal(20000);

      // A full library still replaces and changes what it holds, and makes room by deleting.
      const kept = answers.find((res) => res.status === 201)!.body.data.game_id;
      expect((await full.site.put(path(String(kept)), { rating: 3 })).status).to.equal(200);
      expect((await full.site.patch(path(String(kept)), { rating: 4 })).status).to.equal(200);
      const third = await people.catalogGame({ platform_ids: [6] });
      const again = await full.site.put(path(third), {});
      expect(again.status).to.equal(409);
      expect((await full.site.delete(path(String(kept)))).status).to.equal(200);
      expect((await full.site.put(path(third), {})).status).to.equal(201);
    });

    it('refuses an import that would pass the limit, and takes one that only replaces', async () => {
      const fresh = await people.catalogGame({ platform_ids: [6] });
      const held = (
        await db()('library_entries').where({ account_id: full.account.id }).orderBy('created_at', 'desc').first()
      ).game_id;
      const heldGame = await db()('games').where({ id: held }).first();
      expect(heldGame, 'the last entry is of a catalog game').to.exist;
      const refused = await full.site.post('/api/v1/library/import', {
        entries: [{ game_id: held }, { game_id: fresh.id }],
      });
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.error).to.include({ reason: 'library_full', limit: 20000, count: 20000 });
      const replaced = await full.site.post('/api/v1/library/import', { entries: [{ game_id: held, rating: 9 }] });
      expect(replaced.status, replaced.text).to.equal(200);
      expect(replaced.body.data).to.deep.equal({ created: 0, updated: 1 });
    });
  });
});
