// POST /lists/folders, PATCH and DELETE /lists/folders/{id}: the owner's folders, their refusals, the limit of
// 100 held under parallel creations, a deleted folder's lists moving to no folder, and the folders' counts
// per reader (GET /profiles/{u}/lists/folders). Then the account's lists as the export and DELETE
// /account/data?category=lists see what the list routes wrote.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, PASSWORD } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { catalogGame, follow, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('list folders', () => {
  useCleanDatabase();
  const app = useTestApp();

  const refusal = (res: TestResponse, field: string, reason: string, label = `${field} ${reason}`) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(400);
    expect(res.body.error, label).to.include({ code: 'invalid_request', field, reason });
  };
  const notFound = (res: TestResponse, label: string) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(404);
    expect(res.body.error, label).to.include({ code: 'not_found', reason: 'folder_not_found' });
  };

  it('makes, renames and deletes a folder; its lists move to no folder and keep their times', async () => {
    const owner = await namedPerson(app.client, 'folder_owner');
    const made = await owner.site.post('/api/v1/lists/folders', { name: 'RPGs' });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.data).to.have.keys(['id', 'name', 'created_at', 'updated_at']);
    expect(made.body.data.name).to.equal('RPGs');
    const id = made.body.data.id as string;
    expect(id).to.match(/^[A-Za-z0-9_-]{12}$/);
    // Two folders may share a name.
    expect((await owner.site.post('/api/v1/lists/folders', { name: 'RPGs' })).status).to.equal(201);

    const renamed = await owner.site.patch(`/api/v1/lists/folders/${id}`, { name: 'JRPGs 🐉' });
    expect(renamed.status, renamed.text).to.equal(200);
    expect(renamed.body.data).to.include({ id, name: 'JRPGs 🐉', created_at: made.body.data.created_at });

    const inside = await owner.site.post('/api/v1/lists', { title: 'Inside', folder: id });
    const listPath = `/api/v1/lists/${inside.body.data.id}`;
    await db()('lists')
      .where({ public_id: inside.body.data.id })
      .update({ updated_at: new Date('2026-01-01T00:00:00Z') });
    const filtered = await owner.site.get(`/api/v1/profiles/folder_owner/lists?folder=${id}`);
    expect(filtered.body.data.map((l: { title: string }) => l.title)).to.deep.equal(['Inside']);

    const deleted = await owner.site.delete(`/api/v1/lists/folders/${id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ data: { id, deleted: true } });
    const after = await owner.site.get(listPath);
    expect(after.body.data).to.include({ folder: null, updated_at: '2026-01-01T00:00:00.000Z' });
    const unfiled = await owner.site.get('/api/v1/profiles/folder_owner/lists?folder=NONE');
    expect(unfiled.body.data.map((l: { title: string }) => l.title)).to.deep.equal(['Inside']);
    notFound(await owner.site.delete(`/api/v1/lists/folders/${id}`), 'deleted twice');
    notFound(await owner.site.patch(`/api/v1/lists/folders/${id}`, { name: 'Back' }), 'renamed after');
    // A list cannot join a folder that is gone.
    refusal(await owner.site.patch(listPath, { folder: id }), 'folder', 'fields_invalid');
  });

  it('refuses bad names, another account’s folder, anonymous writes and keys without lists.write', async () => {
    const owner = await namedPerson(app.client, 'folder_refused');
    const stranger = await namedPerson(app.client, 'folder_stranger');
    const made = await owner.site.post('/api/v1/lists/folders', { name: 'Mine' });
    const path = `/api/v1/lists/folders/${made.body.data.id}`;
    const cases: Array<[unknown, string, string]> = [
      [{}, 'name', 'missing'],
      [{ name: '' }, 'name', 'too_short'],
      [{ name: 'x'.repeat(61) }, 'name', 'too_long'],
      [{ name: '😀'.repeat(61) }, 'name', 'too_long'],
      [{ name: 5 }, 'name', 'wrong_type'],
      [{ name: 'tab\u0001' }, 'name', 'bad_format'],
      [{ name: ' \u3000 ' }, 'name', 'fields_invalid'],
      [{ name: 'Ok', color: 'red' }, 'color', 'unknown_field'],
    ];
    for (const [body, field, reason] of cases) {
      refusal(await owner.site.post('/api/v1/lists/folders', body), field, reason, `post ${JSON.stringify(body)}`);
      refusal(await owner.site.patch(path, body), field, reason, `patch ${JSON.stringify(body)}`);
    }
    expect((await owner.site.post('/api/v1/lists/folders', { name: '😀'.repeat(60) })).status).to.equal(201);

    notFound(await stranger.site.patch(path, { name: 'Mine now' }), 'stranger renames');
    notFound(await stranger.site.delete(path), 'stranger deletes');
    notFound(await owner.site.patch('/api/v1/lists/folders/no-such', { name: 'x' }), 'unknown');

    expect((await app.client.post('/api/v1/lists/folders', { name: 'Anon' })).status).to.equal(401);
    expect((await app.client.patch(path, { name: 'Anon' })).status).to.equal(401);
    expect((await app.client.delete(path)).status).to.equal(401);
    const reader = await appWithKey(owner.account.id, ['lists.read']);
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    for (const res of [
      await app.client.post('/api/v1/lists/folders', { name: 'Key' }, as(reader.token)),
      await app.client.patch(path, { name: 'Key' }, as(reader.token)),
      await app.client.delete(path, as(reader.token)),
    ]) {
      expect(res.status).to.equal(403);
      expect(res.body.error).to.include({ code: 'insufficient_scope', scope: 'lists.write' });
    }
    const writer = await appWithKey(owner.account.id, ['lists.write']);
    expect((await app.client.patch(path, { name: 'Key' }, as(writer.token))).status).to.equal(200);
    expect((await app.client.delete(path, as(writer.token))).status).to.equal(200);
  });

  it('holds 100 folders per account under parallel creations', async () => {
    const owner = await namedPerson(app.client, 'folder_full');
    await db().raw(
      `INSERT INTO list_folders (account_id, public_id, name)
       SELECT ?, 'ff-' || n, 'Folder ' || n FROM generate_series(1, 97) n`,
      [owner.account.id],
    );
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, n) => owner.site.post('/api/v1/lists/folders', { name: `P${n}` })),
    );
    expect(answers.map((res) => res.status).sort()).to.deep.equal([201, 201, 201, 409, 409, 409, 409]);
    const full = answers.find((res) => res.status === 409)!;
    expect(full.body.error).to.include({ code: 'conflict', reason: 'folders_full', limit: 100, count: 100 });
    expect(await db()('list_folders').where({ account_id: owner.account.id }).count({ n: '*' })).to.deep.equal([
      { n: 100 },
    ]);
  });

  it('never leaves a list in a folder deleted while the list was made', async () => {
    const owner = await namedPerson(app.client, 'folder_race');
    for (let round = 0; round < 5; round += 1) {
      const folder = (await owner.site.post('/api/v1/lists/folders', { name: `Race ${round}` })).body.data.id;
      const [made, deleted] = await Promise.all([
        owner.site.post('/api/v1/lists', { title: `Race ${round}`, folder }),
        owner.site.delete(`/api/v1/lists/folders/${folder}`),
      ]);
      expect(deleted.status, deleted.text).to.equal(200);
      if (made.status === 201) {
        expect((await owner.site.get(`/api/v1/lists/${made.body.data.id}`)).body.data.folder).to.equal(null);
      } else refusal(made, 'folder', 'fields_invalid', `round ${round}`);
    }
  });

  it('counts each reader’s lists per folder, empty and private folders hidden from visitors', async () => {
    const owner = await namedPerson(app.client, 'fc_owner');
    const follower = await namedPerson(app.client, 'fc_follower');
    await follow(follower.account.id, owner.account.id);
    const folder = async (name: string) => (await owner.site.post('/api/v1/lists/folders', { name })).body.data.id;
    const [mixed, secret, empty] = [await folder('Mixed'), await folder('Secret'), await folder('Empty')];
    const list = (title: string, visibility: string, inFolder: string | null) =>
      owner.site.post('/api/v1/lists', { title, visibility, folder: inFolder });
    await list('pub', 'PUBLIC', mixed);
    await list('fol', 'FOLLOWERS', mixed);
    await list('pri', 'PRIVATE', secret);
    await list('loose', 'PUBLIC', null);
    await list('loose private', 'PRIVATE', null);
    const foldersOf = async (site: SiteClient) =>
      (await site.get('/api/v1/profiles/fc_owner/lists/folders')).body.data as {
        folders: Array<{ name: string; count: number }>;
        unfiled: number;
      };
    const shown = (data: Awaited<ReturnType<typeof foldersOf>>) => [
      data.folders.map((f) => `${f.name}:${f.count}`),
      data.unfiled,
    ];
    expect(shown(await foldersOf(owner.site))).to.deep.equal([['Empty:0', 'Mixed:2', 'Secret:1'], 2]);
    expect(shown(await foldersOf(follower.site))).to.deep.equal([['Mixed:2'], 1]);
    expect(shown(await foldersOf(new SiteClient(app.client)))).to.deep.equal([['Mixed:1'], 1]);
    // A list moved between folders moves its count.
    const lists = (await owner.site.get('/api/v1/profiles/fc_owner/lists?q=loose')).body.data;
    const loose = lists.find((l: { title: string }) => l.title === 'loose');
    await owner.site.patch(`/api/v1/lists/${loose.id}`, { folder: empty });
    expect(shown(await foldersOf(new SiteClient(app.client)))).to.deep.equal([['Empty:1', 'Mixed:1'], 0]);
  });

  describe('the account’s data', () => {
    it('exports the lists, folders, tier labels and games the routes wrote', async () => {
      const owner = await namedPerson(app.client, 'list_exporter');
      const game = await catalogGame();
      const folder = await owner.site.post('/api/v1/lists/folders', { name: 'Export me' });
      const made = await owner.site.post('/api/v1/lists', {
        title: 'Tiered',
        mode: 'tier',
        tiers: ['Top', 'Low'],
        folder: folder.body.data.id,
        items: [{ game_id: game.id, tier: 'Low' }],
      });
      const row = await db()('lists').where({ public_id: made.body.data.id }).first('id');
      const res = await owner.site.get('/api/v1/account/export');
      expect(res.status).to.equal(200);
      const doc = JSON.parse(res.text).data;
      expect(doc.list_folders).to.have.length(1);
      expect(doc.list_folders[0]).to.include({ public_id: folder.body.data.id, name: 'Export me' });
      expect(doc.lists).to.have.length(1);
      expect(doc.lists[0]).to.include({ public_id: made.body.data.id, title: 'Tiered', mode: 'tier' });
      // What a tier list is made of: its labels and its games in their tiers.
      expect(doc.lists[0].tiers, 'the export’s lists carry `tiers`').to.deep.equal(['Top', 'Low']);
      expect(doc.list_items, 'the export carries the lists’ games').to.deep.equal([
        { list_id: row.id, position: 1, game_id: game.id, tier: 'Low' },
      ]);
    });

    it('deletes the lists, their items, feed items and folders with the lists category', async () => {
      const owner = await namedPerson(app.client, 'list_deleter');
      const game = await catalogGame();
      const folder = await owner.site.post('/api/v1/lists/folders', { name: 'Gone' });
      const made = await owner.site.post('/api/v1/lists', {
        title: 'Gone too',
        folder: folder.body.data.id,
        items: [{ game_id: game.id }],
      });
      await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Stays.' });
      const row = await db()('lists').where({ public_id: made.body.data.id }).first('id');
      const res = await owner.site.delete('/api/v1/account/data?category=lists', { body: { password: PASSWORD } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.category).to.equal('lists');
      expect(res.body.data.removed).to.include({ activity_items: 1, lists: 1, list_folders: 1 });
      expect(await db()('list_items').where({ list_id: row.id })).to.have.length(0);
      expect((await owner.site.get(`/api/v1/lists/${made.body.data.id}`)).status).to.equal(404);
      expect((await owner.site.get('/api/v1/profiles/list_deleter/lists/folders')).body.data).to.deep.equal({
        folders: [],
        unfiled: 0,
      });
      // Nothing outside the category goes.
      expect(await db()('reviews').where({ account_id: owner.account.id })).to.have.length(1);
      expect(await db()('activity_items').where({ account_id: owner.account.id, kind: 'review' })).to.have.length(1);
    });
  });
});
