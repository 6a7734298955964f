// GET /profiles/{username}/lists and /lists/folders: what each reader sees of a person's lists and folders,
// every filter and sort, the `before` cursor, and every bound as a 400 naming its parameter.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { block, follow, list, listFolder, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 10, minutes));

describe('GET /profiles/{username}/lists', () => {
  useCleanDatabase();
  const app = useTestApp();
  // The database is cleaned once per file, so each test's list ids carry its prefix, dropped here.
  const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((l) => l.id.split('-')[1]);

  /** The owner, a follower and a stranger, and four lists across folders, modes and audiences. */
  async function shelf(prefix: string) {
    const owner = await namedPerson(app.client, `${prefix}_owner`);
    const follower = await namedPerson(app.client, `${prefix}_follower`);
    const stranger = await namedPerson(app.client, `${prefix}_stranger`);
    await follow(follower.account.id, owner.account.id);
    const rpg = await listFolder(owner.account.id, { public_id: `${prefix}-rpg`, name: 'RPG' });
    const secret = await listFolder(owner.account.id, { public_id: `${prefix}-secret`, name: 'Privadas' });
    const make = (id: string, minutes: number, fields: Record<string, unknown>) =>
      list(owner.account.id, {
        public_id: `${prefix}-${id}`,
        created_at: at(minutes),
        updated_at: at(minutes),
        ...fields,
      });
    await make('a', 1, { title: 'Melhores RPGs', mode: 'list', likes: 5, preview_count: 10, folder_id: rpg.id });
    await make('b', 2, { title: 'Ação e aventura', description: 'Jogos de AÇÃO', mode: 'ranked', likes: 9 });
    await db()('lists')
      .where({ public_id: `${prefix}-b` })
      .update({ preview_count: 3 });
    await make('c', 3, {
      title: 'Zelda tiers',
      mode: 'tier',
      likes: 1,
      preview_count: 10,
      folder_id: rpg.id,
      visibility: 'FOLLOWERS',
    });
    await make('d', 4, { title: 'backlog', visibility: 'PRIVATE', folder_id: secret.id });
    return { owner, follower, stranger, rpg, secret, path: `/api/v1/profiles/${prefix}_owner/lists` };
  }

  it('shows each reader what item visibility allows, and the audience only to the owner', async () => {
    const { owner, follower, stranger, path } = await shelf('lm');
    const seen: Array<[SiteClient, string[]]> = [
      [new SiteClient(app.client), ['b', 'a']],
      [stranger.site, ['b', 'a']],
      [follower.site, ['c', 'b', 'a']],
      [owner.site, ['d', 'c', 'b', 'a']],
    ];
    for (const [reader, expected] of seen) {
      const res = await reader.get(path);
      expect(res.status).to.equal(200);
      expect(ids(res)).to.deep.equal(expected);
      expect(res.body.page).to.deep.equal({
        number: 1,
        size: 24,
        total_items: expected.length,
        total_pages: 1,
        has_more: false,
      });
    }
    const own = await owner.site.get(path);
    expect(own.body.data[3]).to.deep.equal({
      id: 'lm-a',
      title: 'Melhores RPGs',
      description: '',
      visibility: 'PUBLIC',
      mode: 'list',
      likes: 5,
      comments: 0,
      awards: {},
      size: 10,
      folder: 'lm-rpg',
      created_at: at(1).toISOString(),
      updated_at: at(1).toISOString(),
    });
    expect(own.body.data[2]).to.include({ folder: null, visibility: 'PUBLIC' });
    const visitor = await follower.site.get(path);
    expect(visitor.body.data[0]).to.not.have.property('visibility');
    expect(visitor.body.data[0]).to.include({ id: 'lm-c', folder: 'lm-rpg', size: 10 });
  });

  it('hides the lists from both sides of a block, not for a private library, and checks the key scope', async () => {
    const { owner, path } = await shelf('lb');
    const blocked = await namedPerson(app.client, 'lb_blocked');
    const blocker = await namedPerson(app.client, 'lb_blocker');
    await block(owner.account.id, blocked.account.id);
    await block(blocker.account.id, owner.account.id);
    for (const reader of [blocked, blocker]) {
      expect((await reader.site.get(path)).status).to.equal(404);
      expect((await reader.site.get(`${path}/folders`)).status).to.equal(404);
    }
    expect((await app.client.get('/api/v1/profiles/nobody_here/lists')).status).to.equal(404);
    // Lists follow their own visibility: a private library does not hide a public list.
    await db()('profiles')
      .insert({ account_id: owner.account.id, library_visibility: 'PRIVATE' })
      .onConflict('account_id')
      .merge();
    expect(ids(await app.client.get(path))).to.deep.equal(['b', 'a']);

    const { token } = await appWithKey(owner.account.id, ['lists.read']);
    const auth = { headers: { authorization: `Bearer ${token}` } };
    expect(ids(await app.client.get(path, auth))).to.deep.equal(['d', 'c', 'b', 'a']);
    expect((await app.client.get(`${path}/folders`, auth)).status).to.equal(200);
    const other = await appWithKey(owner.account.id, ['journal.read']);
    for (const url of [path, `${path}/folders`]) {
      const refused = await app.client.get(url, { headers: { authorization: `Bearer ${other.token}` } });
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'lists.read' });
    }
  });

  it('filters, sorts and pages, within what the reader may see', async () => {
    const { owner, stranger, path } = await shelf('lf');
    const asOwner: Array<[string, string[]]> = [
      ['sort=recent', ['d', 'c', 'b', 'a']],
      ['sort=oldest', ['a', 'b', 'c', 'd']],
      ['sort=name', ['b', 'd', 'a', 'c']],
      ['sort=likes', ['b', 'a', 'c', 'd']],
      ['sort=size', ['c', 'a', 'b', 'd']],
      ['visibility=PRIVATE', ['d']],
      ['visibility=FOLLOWERS', ['c']],
      ['visibility=PUBLIC', ['b', 'a']],
      ['mode=tier', ['c']],
      ['mode=ranked', ['b']],
      ['mode=list', ['d', 'a']],
      ['q=acao', ['b']],
      ['q=AVENTURA', ['b']],
      ['q=jogos de ação', ['b']],
      ['q=rpg', ['a']],
      ['q=%25', []],
      ['q=_', []],
      ['folder=lf-rpg', ['c', 'a']],
      ['folder=NONE', ['b']],
      ['folder=someone-else', []],
      [`before=${at(3).toISOString()}`, ['b', 'a']],
      [`before=${at(3).toISOString()}&sort=recent`, ['b', 'a']],
      ['mode=list&visibility=PUBLIC', ['a']],
      ['folder=lf-rpg&sort=likes', ['a', 'c']],
    ];
    for (const [query, expected] of asOwner) {
      const res = await owner.site.get(`${path}?${query}`);
      expect(res.status, query).to.equal(200);
      expect(ids(res), query).to.deep.equal(expected);
      expect(res.body.page.total_items, query).to.equal(expected.length);
    }
    const asStranger: Array<[string, string[]]> = [
      ['visibility=PRIVATE', []],
      ['visibility=FOLLOWERS', []],
      ['folder=lf-rpg', ['a']],
      ['folder=lf-secret', []],
      ['sort=size', ['a', 'b']],
      ['q=zelda', []],
    ];
    for (const [query, expected] of asStranger) {
      expect(ids(await stranger.site.get(`${path}?${query}`)), query).to.deep.equal(expected);
    }

    const first = await owner.site.get(`${path}?sort=name&limit=3`);
    expect(ids(first)).to.deep.equal(['b', 'd', 'a']);
    expect(first.body.page).to.deep.equal({ number: 1, size: 3, total_items: 4, total_pages: 2, has_more: true });
    const second = await owner.site.get(`${path}?sort=name&limit=3&offset=3`);
    expect(ids(second)).to.deep.equal(['c']);
    expect(second.body.page).to.deep.equal({ number: 2, size: 3, total_items: 4, total_pages: 2, has_more: false });
    const cursor = await owner.site.get(`${path}?limit=2&before=${encodeURIComponent(at(4).toISOString())}`);
    expect(ids(cursor)).to.deep.equal(['c', 'b']);
    expect(cursor.body.page).to.deep.equal({ number: 1, size: 2, total_items: 3, total_pages: 2, has_more: true });
    const past = await owner.site.get(`${path}?offset=10000`);
    expect(past.body.data).to.deep.equal([]);
    expect(past.body.page).to.deep.equal({
      number: 417,
      size: 24,
      total_items: 4,
      total_pages: 1,
      has_more: false,
    });
  });

  it('numbers the page an offset falls in, and a page of a `before` cursor as the first', async () => {
    const { owner, path } = await shelf('lp');
    // Pages of two, oldest first: [a, b], [c, d].
    const pages: Array<[string, string[], number, boolean]> = [
      ['offset=0', ['a', 'b'], 1, true],
      ['offset=1', ['b', 'c'], 1, true],
      ['offset=2', ['c', 'd'], 2, false],
      ['offset=3', ['d'], 2, false],
    ];
    for (const [query, expected, number, more] of pages) {
      const res = await owner.site.get(`${path}?sort=oldest&limit=2&${query}`);
      expect(ids(res), query).to.deep.equal(expected);
      expect(res.body.page, query).to.deep.equal({
        number,
        size: 2,
        total_items: 4,
        total_pages: 2,
        has_more: more,
      });
    }
    // Following the cursor: each page counts only what lies before its instant, and is page 1 of that.
    const next = await owner.site.get(`${path}?limit=2&before=${encodeURIComponent(at(3).toISOString())}`);
    expect(ids(next)).to.deep.equal(['b', 'a']);
    expect(next.body.page).to.deep.equal({ number: 1, size: 2, total_items: 2, total_pages: 1, has_more: false });
    // A cursor with an offset on top would not be page 1: the two ways of paging do not mix.
    const mixed = await owner.site.get(`${path}?limit=2&offset=2&before=${encodeURIComponent(at(4).toISOString())}`);
    expect(mixed.status).to.equal(400);
    expect(mixed.body.error).to.include({ code: 'invalid_request', field: 'offset', reason: 'not_allowed' });
    const zero = await owner.site.get(`${path}?limit=2&offset=0&before=${encodeURIComponent(at(4).toISOString())}`);
    expect(ids(zero)).to.deep.equal(['c', 'b']);
  });

  it('answers 400 naming the parameter for every bad or out-of-range value', async () => {
    const { path } = await shelf('lv');
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=49', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=10001', 'offset'],
      ['sort=best', 'sort'],
      ['mode=grid', 'mode'],
      ['visibility=public', 'visibility'],
      ['before=yesterday', 'before'],
      [`before=${at(3).toISOString()}&sort=name`, 'before'],
      [`before=${at(3).toISOString()}&sort=oldest`, 'before'],
      [`q=${'x'.repeat(81)}`, 'q'],
      ['folder=', 'folder'],
    ]) {
      const res = await app.client.get(`${path}?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error, query).to.include({ code: 'invalid_request', field });
    }
    for (const query of ['limit=1', 'limit=48', 'offset=0', 'offset=10000', `q=${'x'.repeat(80)}`]) {
      expect((await app.client.get(`${path}?${query}`)).status, query).to.equal(200);
    }
  });
});

describe('GET /profiles/{username}/lists/folders', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('shows owners every folder, and visitors only folders holding lists they may read', async () => {
    const owner = await namedPerson(app.client, 'fold_owner');
    const follower = await namedPerson(app.client, 'fold_follower');
    const stranger = await namedPerson(app.client, 'fold_stranger');
    await follow(follower.account.id, owner.account.id);
    const rpg = await listFolder(owner.account.id, { public_id: 'rpg', name: 'RPG' });
    const secret = await listFolder(owner.account.id, { public_id: 'secret', name: 'Privadas' });
    await listFolder(owner.account.id, { public_id: 'empty', name: 'Vazia' });
    const friends = await listFolder(owner.account.id, { public_id: 'friends', name: 'Amigos' });
    await list(owner.account.id, { folder_id: rpg.id });
    await list(owner.account.id, { folder_id: rpg.id, visibility: 'FOLLOWERS' });
    await list(owner.account.id, { folder_id: secret.id, visibility: 'PRIVATE' });
    await list(owner.account.id, { folder_id: friends.id, visibility: 'FOLLOWERS' });
    await list(owner.account.id);
    await list(owner.account.id, { visibility: 'PRIVATE' });
    await list(owner.account.id, { visibility: 'FOLLOWERS' });

    const path = '/api/v1/profiles/fold_owner/lists/folders';
    const own = await owner.site.get(path);
    expect(own.status).to.equal(200);
    expect(own.body.data).to.deep.equal({
      folders: [
        { id: 'friends', name: 'Amigos', count: 1 },
        { id: 'secret', name: 'Privadas', count: 1 },
        { id: 'rpg', name: 'RPG', count: 2 },
        { id: 'empty', name: 'Vazia', count: 0 },
      ],
      unfiled: 3,
    });
    expect((await follower.site.get(path)).body.data).to.deep.equal({
      folders: [
        { id: 'friends', name: 'Amigos', count: 1 },
        { id: 'rpg', name: 'RPG', count: 2 },
      ],
      unfiled: 2,
    });
    for (const reader of [stranger.site, new SiteClient(app.client)]) {
      expect((await reader.get(path)).body.data).to.deep.equal({
        folders: [{ id: 'rpg', name: 'RPG', count: 1 }],
        unfiled: 1,
      });
    }
  });

  it('answers an empty shelf, and 404 for an unknown person', async () => {
    await namedPerson(app.client, 'bare_owner');
    const res = await app.client.get('/api/v1/profiles/bare_owner/lists/folders');
    expect(res.body).to.deep.equal({ data: { folders: [], unfiled: 0 } });
    expect((await app.client.get('/api/v1/profiles/nobody_here/lists/folders')).status).to.equal(404);
  });
});
