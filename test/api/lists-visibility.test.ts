// GET /lists/{id}: who sees one list (its own visibility, blocks either way, the author always), a list
// moderation removed (by the moderation route, and restored), the cache headers of each answer, and the
// person's lists and folders (GET /profiles/{u}/lists, /lists/folders) kept true by the writes, per reader.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { staffMember } from '../helpers/moderation.js';
import { catalogGame, follow, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { readersOf, READERS, SEES, VISIBILITIES, type Visibility } from '../helpers/readers.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /lists/{id}: who sees a list', () => {
  useCleanDatabase();
  const app = useTestApp();

  const notFound = (res: TestResponse, label: string) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(404);
    expect(res.body.error, label).to.include({ code: 'not_found', reason: 'list_not_found' });
  };
  const titles = (res: TestResponse) => (res.body.data as Array<{ title: string }>).map((l) => l.title).sort();

  it('shows each list to the readers its visibility and blocks allow, as the person’s lists do', async () => {
    const { owner, sites } = await readersOf(app.client, 'lv');
    const game = await catalogGame({ name: 'Hades', slug: 'hades' });
    const folder = await owner.site.post('/api/v1/lists/folders', { name: 'Todas' });
    const ids = {} as Record<Visibility, string>;
    for (const visibility of VISIBILITIES) {
      const res = await owner.site.post('/api/v1/lists', {
        title: visibility,
        visibility,
        mode: 'tier',
        folder: folder.body.data.id,
        items: [{ game_id: game.id, tier: 'A' }],
      });
      expect(res.status, res.text).to.equal(201);
      ids[visibility] = res.body.data.id;
    }

    for (const reader of READERS) {
      for (const visibility of VISIBILITIES) {
        const res = await sites[reader].get(`/api/v1/lists/${ids[visibility]}`);
        const label = `${reader} reading ${visibility}`;
        if (!SEES[visibility].includes(reader)) {
          notFound(res, label);
          continue;
        }
        expect(res.status, `${label}: ${res.text}`).to.equal(200);
        expect(res.body.data, label).to.deep.include({
          id: ids[visibility],
          username: 'lv_owner',
          title: visibility,
          mode: 'tier',
          tiers: ['S', 'A', 'B', 'C', 'D'],
          folder: folder.body.data.id,
          size: 1,
          removed: false,
        });
        expect(res.body.data.items[0]).to.deep.include({ game_id: game.id, tier: 'A' });
        expect(res.body.data.items[0].game).to.include({ slug: 'hades', name: 'Hades' });
        // Only the owner learns the audience, as on the person's lists.
        if (reader === 'owner') expect(res.body.data.visibility, label).to.equal(visibility);
        else expect(res.body.data, label).not.to.have.property('visibility');
        const keepable = visibility === 'PUBLIC' && reader === 'anonymous';
        expect(res.headers.get('cache-control'), label).to.equal(keepable ? 'private, no-cache' : 'private, no-store');
      }
      // The person's lists and folders show the same reader the same lists (or are 404 across a block).
      const lists = await sites[reader].get('/api/v1/profiles/lv_owner/lists');
      const folders = await sites[reader].get('/api/v1/profiles/lv_owner/lists/folders');
      if (reader === 'blocked' || reader === 'blocker') {
        expect(lists.status, reader).to.equal(404);
        expect(folders.status, reader).to.equal(404);
        continue;
      }
      const seen = VISIBILITIES.filter((v) => SEES[v].includes(reader));
      expect(titles(lists), reader).to.deep.equal([...seen].sort());
      expect(lists.body.data[0], reader).to.include({ folder: folder.body.data.id, size: 1, mode: 'tier' });
      expect(folders.body.data, reader).to.deep.equal({
        folders: [{ id: folder.body.data.id, name: 'Todas', count: seen.length }],
        unfiled: 0,
      });
    }
  });

  it('answers 404 to ids that name nothing, and reads with a key holding lists.read only', async () => {
    const owner = await namedPerson(app.client, 'lv_keys');
    notFound(await owner.site.get('/api/v1/lists/no-such-list'), 'unknown');
    notFound(await owner.site.get('/api/v1/lists/folders'), 'the folders segment');
    const made = await owner.site.post('/api/v1/lists', { title: 'Keyed' });
    const path = `/api/v1/lists/${made.body.data.id}`;
    const reader = await appWithKey(owner.account.id, ['lists.read']);
    const read = await app.client.get(path, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(read.status).to.equal(200);
    expect(read.body.data).to.include({ title: 'Keyed', visibility: 'PUBLIC' });
    const other = await appWithKey(owner.account.id, ['reviews.read']);
    const refused = await app.client.get(path, { headers: { authorization: `Bearer ${other.token}` } });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'lists.read' });
  });

  it('shows a list moderation removed to its author alone, with removed: true, until it is restored', async () => {
    const moderator = await staffMember(app.client, 'lv_moderator');
    const owner = await namedPerson(app.client, 'lv_removed');
    const follower = await namedPerson(app.client, 'lv_removed_follower');
    await follow(follower.account.id, owner.account.id);
    const folder = await owner.site.post('/api/v1/lists/folders', { name: 'Caixa' });
    const made = await owner.site.post('/api/v1/lists', { title: 'Too harsh', folder: folder.body.data.id });
    const id = made.body.data.id as string;
    const path = `/api/v1/lists/${id}`;
    const removed = await moderator.site.post(`/api/v1/moderation/content/list/${id}`, { action: 'remove' });
    expect(removed.status, removed.text).to.equal(200);

    const own = await owner.site.get(path);
    expect(own.status).to.equal(200);
    expect(own.body.data).to.include({ title: 'Too harsh', removed: true, visibility: 'PUBLIC' });
    expect(own.headers.get('cache-control')).to.equal('private, no-store');
    for (const [label, site] of [
      ['follower', follower.site],
      ['anonymous', new SiteClient(app.client)],
    ] as const) {
      notFound(await site.get(path), label);
    }
    // A removed list counts and lists nowhere, for its author too; its feed item hides.
    for (const site of [owner.site, follower.site]) {
      expect((await site.get('/api/v1/profiles/lv_removed/lists')).body.page.total_items).to.equal(0);
    }
    const counts = await owner.site.get('/api/v1/profiles/lv_removed/lists/folders');
    expect(counts.body.data).to.deep.equal({
      folders: [{ id: folder.body.data.id, name: 'Caixa', count: 0 }],
      unfiled: 0,
    });
    expect((await follower.site.get('/api/v1/profiles/lv_removed/lists/folders')).body.data).to.deep.equal({
      folders: [],
      unfiled: 0,
    });
    const feed = await follower.site.get('/api/v1/activity?profile=lv_removed');
    expect(feed.body.data).to.deep.equal([]);
    const patched = await owner.site.patch(path, { title: 'Softer' });
    expect(patched.body.error).to.include({ code: 'forbidden', reason: 'removed' });

    const restored = await moderator.site.post(`/api/v1/moderation/content/list/${id}`, { action: 'restore' });
    expect(restored.status).to.equal(200);
    expect((await follower.site.get(path)).body.data).to.include({ removed: false });
    expect((await follower.site.get('/api/v1/activity?profile=lv_removed')).body.data).to.have.length(1);
    expect((await owner.site.patch(path, { title: 'Softer' })).status).to.equal(200);
  });

  it('moves a list in and out of what a stranger sees when its author changes the visibility', async () => {
    const owner = await namedPerson(app.client, 'lv_moves');
    const stranger = await namedPerson(app.client, 'lv_moves_stranger');
    const made = await owner.site.post('/api/v1/lists', { title: 'Shy', visibility: 'PRIVATE' });
    const path = `/api/v1/lists/${made.body.data.id}`;
    notFound(await stranger.site.get(path), 'private');
    expect((await stranger.site.get('/api/v1/activity?profile=lv_moves')).body.data).to.deep.equal([]);
    await owner.site.patch(path, { visibility: 'PUBLIC' });
    expect((await stranger.site.get(path)).status).to.equal(200);
    const feed = await stranger.site.get('/api/v1/activity?profile=lv_moves');
    expect(feed.body.data.map((item: { list_id: string }) => item.list_id)).to.deep.equal([made.body.data.id]);
    expect(titles(await stranger.site.get('/api/v1/profiles/lv_moves/lists'))).to.deep.equal(['Shy']);
  });
});
