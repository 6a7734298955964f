// POST /lists: the owner's new lists in each mode, their defaults and refusals (the schema's reasons and the
// data's `fields_invalid` naming the place), the feed item beside each list, the scopes, and the limit of
// 1,000 lists held under parallel creations. Edits: lists-edits.test.ts; reads: lists-visibility.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { catalogGame, listFolder, namedPerson } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('lists: the owner’s new lists', () => {
  useCleanDatabase();
  const app = useTestApp();

  const refusal = (res: TestResponse, field: string, reason: string, label = `${field} ${reason}`) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(400);
    expect(res.body.error, label).to.include({ code: 'invalid_request', field, reason });
  };
  const feedItems = (listId: string) => db()('activity_items').where({ kind: 'list', subject_id: listId });
  const stored = (publicId: string) => db()('lists').where({ public_id: publicId }).first();

  it('answers 201 with a plain list, its defaults and no items, and writes its feed item', async () => {
    const owner = await namedPerson(app.client, 'list_owner');
    const res = await owner.site.post('/api/v1/lists', { title: 'Para jogar um dia' });
    expect(res.status, res.text).to.equal(201);
    const made = res.body.data;
    expect(made).to.have.keys([
      'id',
      'username',
      'title',
      'description',
      'visibility',
      'mode',
      'tiers',
      'folder',
      'size',
      'items',
      'likes',
      'comments',
      'awards',
      'removed',
      'created_at',
      'updated_at',
    ]);
    expect(made).to.deep.include({
      username: 'list_owner',
      title: 'Para jogar um dia',
      description: '',
      visibility: 'PUBLIC',
      mode: 'list',
      tiers: null,
      folder: null,
      size: 0,
      items: [],
      likes: 0,
      comments: 0,
      awards: {},
      removed: false,
    });
    expect(made.id).to.match(/^[A-Za-z0-9_-]{12}$/);
    expect(made.updated_at).to.equal(made.created_at);
    const row = await stored(made.id);
    expect(row).to.include({ account_id: owner.account.id, preview_count: 0, tiers: null });
    const items = await feedItems(row.id);
    expect(items).to.have.length(1);
    expect(items[0]).to.include({ account_id: owner.account.id, game_id: null, visibility: 'PUBLIC' });
    // The feed shows it with the list's id and reactions.
    const feed = await owner.site.get('/api/v1/activity?profile=list_owner');
    expect(feed.body.data[0]).to.deep.include({ kind: 'list', list_id: made.id, title: 'Para jogar um dia' });
  });

  it('keeps a ranked list’s order, with each game’s catalog row shaped like /games', async () => {
    const owner = await namedPerson(app.client, 'ranked_owner');
    const folder = await listFolder(owner.account.id, { public_id: 'ranked-folder', name: 'Top' });
    const first = await catalogGame({ name: 'Celeste', slug: 'celeste', release_year: 2018 });
    const second = await catalogGame({ name: 'Braid', slug: 'braid' });
    const res = await owner.site.post('/api/v1/lists', {
      title: 'Plataforma',
      description: 'Linha um\n\tlinha dois',
      visibility: 'FOLLOWERS',
      mode: 'ranked',
      folder: 'ranked-folder',
      items: [{ game_id: first.id }, { game_id: second.id }],
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data).to.deep.include({
      description: 'Linha um\n\tlinha dois',
      visibility: 'FOLLOWERS',
      mode: 'ranked',
      folder: 'ranked-folder',
      size: 2,
    });
    expect(res.body.data.items).to.deep.equal([
      {
        position: 1,
        game_id: first.id,
        tier: null,
        game: {
          id: first.id,
          slug: 'celeste',
          name: 'Celeste',
          release_year: 2018,
          type: null,
          rating: null,
          genres: [],
          demo_available: false,
          cover_url: null,
        },
      },
      { position: 2, game_id: second.id, tier: null, game: res.body.data.items[1].game },
    ]);
    expect(res.body.data.items[1].game).to.include({ slug: 'braid' });
    const row = await stored(res.body.data.id);
    expect(row).to.include({ folder_id: folder.id, preview_count: 2 });
    expect((await feedItems(row.id))[0]).to.include({ visibility: 'FOLLOWERS' });
  });

  it('makes a tier list on the default board or on its own labels, each game in its tier', async () => {
    const owner = await namedPerson(app.client, 'tier_owner');
    const [a, b, c] = [await catalogGame(), await catalogGame(), await catalogGame()];
    const plain = await owner.site.post('/api/v1/lists', {
      title: 'Default',
      mode: 'tier',
      items: [
        { game_id: a.id, tier: 'S' },
        { game_id: b.id, tier: 'D' },
      ],
    });
    expect(plain.status, plain.text).to.equal(201);
    expect(plain.body.data.tiers).to.deep.equal(['S', 'A', 'B', 'C', 'D']);
    expect(plain.body.data.items.map((i: { tier: string }) => i.tier)).to.deep.equal(['S', 'D']);
    expect((await stored(plain.body.data.id)).tiers).to.deep.equal(['S', 'A', 'B', 'C', 'D']);

    const labels = ['Obra-prima 🏆', 'Bom', 'x'.repeat(20), 'Meh', '5', '6', '7', '8', '9', '10'];
    const own = await owner.site.post('/api/v1/lists', {
      title: 'Mine',
      mode: 'tier',
      tiers: labels,
      items: [
        { game_id: c.id, tier: 'Obra-prima 🏆' },
        { game_id: a.id, tier: '10' },
        { game_id: b.id, tier: 'Obra-prima 🏆' },
      ],
    });
    expect(own.status, own.text).to.equal(201);
    expect(own.body.data).to.deep.include({ tiers: labels, size: 3 });
    expect(own.body.data.items.map((i: { game_id: number }) => i.game_id)).to.deep.equal([c.id, a.id, b.id]);
    expect(
      await db()('list_items')
        .where({ list_id: (await stored(own.body.data.id)).id })
        .orderBy('position'),
    ).to.have.length(3);
  });

  it('holds 500 games, and a game the catalog later loses shows with a null game', async () => {
    const owner = await namedPerson(app.client, 'big_owner');
    const games = await db()('games')
      .insert(Array.from({ length: 501 }, (_, n) => ({ slug: `big-${n}`, name: `Big ${n}` })))
      .returning('id');
    const items = games.map((g: { id: number }) => ({ game_id: g.id }));
    refusal(await owner.site.post('/api/v1/lists', { title: 'Too big', items }), 'items', 'too_long');
    const res = await owner.site.post('/api/v1/lists', { title: 'Big', items: items.slice(0, 500) });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.size).to.equal(500);
    expect(res.body.data.items[499]).to.include({ position: 500, game_id: games[499].id });
    await db()('games').where({ id: games[0].id }).delete();
    const read = await owner.site.get(`/api/v1/lists/${res.body.data.id}`);
    expect(read.body.data.items[0]).to.deep.equal({ position: 1, game_id: games[0].id, tier: null, game: null });
    expect(read.body.data.size).to.equal(500);
  });

  it('refuses what the schema sees with validation’s reasons and what the data sees with fields_invalid', async () => {
    const owner = await namedPerson(app.client, 'list_refused');
    const other = await namedPerson(app.client, 'list_other');
    await listFolder(other.account.id, { public_id: 'not-mine', name: 'Theirs' });
    const game = await catalogGame();
    const next = await catalogGame();
    const post = (body: unknown) => owner.site.post('/api/v1/lists', body);
    const ok = { title: 'Fine' };
    const tier = { ...ok, mode: 'tier' };
    const cases: Array<[unknown, string, string]> = [
      [{}, 'title', 'missing'],
      [{ ...ok, title: '' }, 'title', 'too_short'],
      [{ ...ok, title: 'x'.repeat(101) }, 'title', 'too_long'],
      [{ ...ok, title: '😀'.repeat(101) }, 'title', 'too_long'],
      [{ ...ok, title: 7 }, 'title', 'wrong_type'],
      [{ ...ok, title: 'bell \u0007' }, 'title', 'bad_format'],
      [{ ...ok, title: 'nul \u0000' }, 'title', 'bad_format'],
      [{ ...ok, title: ' \n\t\u00a0 ' }, 'title', 'fields_invalid'],
      [{ ...ok, description: 'x'.repeat(2001) }, 'description', 'too_long'],
      [{ ...ok, description: null }, 'description', 'wrong_type'],
      [{ ...ok, visibility: 'SECRET' }, 'visibility', 'not_allowed'],
      [{ ...ok, visibility: 'public' }, 'visibility', 'not_allowed'],
      [{ ...ok, mode: 'grid' }, 'mode', 'not_allowed'],
      [{ ...ok, mode: null }, 'mode', 'wrong_type'],
      [{ ...ok, folder: 12 }, 'folder', 'wrong_type'],
      [{ ...ok, folder: '' }, 'folder', 'too_short'],
      [{ ...ok, folder: 'x'.repeat(101) }, 'folder', 'too_long'],
      [{ ...ok, folder: 'no-such-folder' }, 'folder', 'fields_invalid'],
      [{ ...ok, folder: 'not-mine' }, 'folder', 'fields_invalid'],
      [{ ...ok, unknown: 1 }, 'unknown', 'unknown_field'],
      [{ ...tier, tiers: [] }, 'tiers', 'too_short'],
      [{ ...tier, tiers: Array.from({ length: 11 }, (_, n) => `T${n}`) }, 'tiers', 'too_long'],
      [{ ...tier, tiers: ['S', 'S'] }, 'tiers', 'duplicate'],
      [{ ...tier, tiers: ['S', ''] }, 'tiers', 'too_short'],
      [{ ...tier, tiers: ['S', 'x'.repeat(21)] }, 'tiers', 'too_long'],
      [{ ...tier, tiers: ['S', 3] }, 'tiers', 'wrong_type'],
      [{ ...tier, tiers: 'S,A' }, 'tiers', 'wrong_type'],
      [{ ...tier, tiers: ['S', '  '] }, 'tiers.1', 'fields_invalid'],
      [{ ...ok, tiers: ['S'] }, 'tiers', 'fields_invalid'],
      [{ ...ok, mode: 'ranked', tiers: ['S'] }, 'tiers', 'fields_invalid'],
      [{ ...ok, items: {} }, 'items', 'wrong_type'],
      [{ ...ok, items: [{}] }, 'items.0.game_id', 'missing'],
      [{ ...ok, items: [{ game_id: '1' }] }, 'items.0.game_id', 'wrong_type'],
      [{ ...ok, items: [{ game_id: 0 }] }, 'items.0.game_id', 'out_of_range'],
      [{ ...ok, items: [{ game_id: game.id, rank: 1 }] }, 'items.0.rank', 'unknown_field'],
      [{ ...tier, items: [{ game_id: game.id, tier: 'x'.repeat(21) }] }, 'items.0.tier', 'too_long'],
      [{ ...tier, items: [{ game_id: game.id, tier: null }] }, 'items.0.tier', 'wrong_type'],
      [{ ...ok, items: [{ game_id: game.id }, { game_id: 987_654_321 }] }, 'items.1.game_id', 'fields_invalid'],
      [
        { ...ok, items: [{ game_id: game.id }, { game_id: next.id }, { game_id: game.id }] },
        'items.2.game_id',
        'fields_invalid',
      ],
      [{ ...ok, items: [{ game_id: game.id, tier: 'S' }] }, 'items.0.tier', 'fields_invalid'],
      [{ ...tier, items: [{ game_id: game.id, tier: 'S' }, { game_id: next.id }] }, 'items.1.tier', 'fields_invalid'],
      [{ ...tier, items: [{ game_id: game.id, tier: 'E' }] }, 'items.0.tier', 'fields_invalid'],
      [{ ...tier, tiers: ['Top'], items: [{ game_id: game.id, tier: 'S' }] }, 'items.0.tier', 'fields_invalid'],
    ];
    for (const [body, field, reason] of cases)
      refusal(await post(body), field, reason, JSON.stringify(body).slice(0, 70));
    expect(await db()('lists').where({ account_id: owner.account.id })).to.have.length(0);
    expect(await db()('activity_items').where({ account_id: owner.account.id })).to.have.length(0);
  });

  it('counts characters, not UTF-16 units', async () => {
    const owner = await namedPerson(app.client, 'list_long');
    const res = await owner.site.post('/api/v1/lists', {
      title: '😀'.repeat(100),
      description: '😀'.repeat(2000),
      mode: 'tier',
      tiers: ['😀'.repeat(20)],
    });
    expect(res.status, res.text).to.equal(201);
    expect([...res.body.data.title]).to.have.length(100);
  });

  it('refuses anonymous writes and keys without lists.write; a key with it writes', async () => {
    const owner = await namedPerson(app.client, 'list_keys');
    expect((await app.client.post('/api/v1/lists', { title: 'Anyone?' })).status).to.equal(401);
    const reader = await appWithKey(owner.account.id, ['lists.read']);
    const refused = await app.client.post(
      '/api/v1/lists',
      { title: 'Key' },
      { headers: { authorization: `Bearer ${reader.token}` } },
    );
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'lists.write' });
    const writer = await appWithKey(owner.account.id, ['lists.write']);
    const made = await app.client.post(
      '/api/v1/lists',
      { title: 'Key' },
      { headers: { authorization: `Bearer ${writer.token}` } },
    );
    expect(made.status, made.text).to.equal(201);
    expect(made.body.data.username).to.equal('list_keys');
  });

  it('holds 1,000 lists per account under parallel creations: exactly the places left are taken', async () => {
    const owner = await namedPerson(app.client, 'list_full');
    await db().raw(
      `INSERT INTO lists (account_id, public_id, title)
       SELECT ?, 'full-' || n, 'List ' || n FROM generate_series(1, 997) n`,
      [owner.account.id],
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => owner.site.post('/api/v1/lists', { title: `Parallel ${n}` })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).to.deep.equal([201, 201, 201, 409, 409, 409, 409, 409]);
    const full = answers.find((res) => res.status === 409)!;
    expect(full.body.error).to.include({ code: 'conflict', reason: 'lists_full', limit: 1000, count: 1000 });
    expect(await db()('lists').where({ account_id: owner.account.id }).count({ n: '*' })).to.deep.equal([{ n: 1000 }]);
    // Another account is not held by this one's limit.
    const other = await namedPerson(app.client, 'list_not_full');
    expect((await other.site.post('/api/v1/lists', { title: 'Mine' })).status).to.equal(201);
    // A deleted list frees a place.
    const made = answers.find((res) => res.status === 201)!;
    expect((await owner.site.delete(`/api/v1/lists/${made.body.data.id}`)).status).to.equal(200);
    expect((await owner.site.post('/api/v1/lists', { title: 'Again' })).status).to.equal(201);
  });
});
