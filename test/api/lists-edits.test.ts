// PATCH /lists/{id}, PUT /lists/{id}/items and DELETE /lists/{id}: the owner's changes, what a mode or board
// change does to the games placed, items replaced in order with the size following, the refusals (another
// account's list is 404, a removed one 403), and what a deletion takes with it.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { catalogGame, comment, listFolder, namedPerson } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('lists: the owner’s changes', () => {
  useCleanDatabase();
  const app = useTestApp();

  const refusal = (res: TestResponse, field: string, reason: string, label = `${field} ${reason}`) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(400);
    expect(res.body.error, label).to.include({ code: 'invalid_request', field, reason });
  };
  const tiersOf = (res: TestResponse) => (res.body.data.items as Array<{ tier: string | null }>).map((i) => i.tier);
  const gamesOf = (res: TestResponse) => (res.body.data.items as Array<{ game_id: number }>).map((i) => i.game_id);
  const age = (publicId: string) =>
    db()('lists')
      .where({ public_id: publicId })
      .update({ created_at: new Date('2026-01-01T00:00:00Z'), updated_at: new Date('2026-01-01T00:00:00Z') });

  async function ownerWithList(username: string, body: Record<string, unknown> = {}) {
    const owner = await namedPerson(app.client, username);
    const games = [await catalogGame(), await catalogGame(), await catalogGame()];
    const res = await owner.site.post('/api/v1/lists', { title: 'Start', ...body });
    expect(res.status, res.text).to.equal(201);
    return { owner, games, id: res.body.data.id as string, path: `/api/v1/lists/${res.body.data.id}` };
  }

  describe('PATCH /lists/{id}', () => {
    it('changes only the fields sent, and moves the list between folders', async () => {
      const { owner, id, path } = await ownerWithList('patch_owner', { description: 'Kept.' });
      const folder = await listFolder(owner.account.id, { public_id: 'patch-folder' });
      await age(id);
      const res = await owner.site.patch(path, { title: 'Renamed', visibility: 'PRIVATE', folder: 'patch-folder' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({
        title: 'Renamed',
        description: 'Kept.',
        visibility: 'PRIVATE',
        folder: 'patch-folder',
        created_at: '2026-01-01T00:00:00.000Z',
      });
      expect(Date.parse(res.body.data.updated_at)).to.be.greaterThan(Date.parse('2026-01-02'));
      expect(await db()('lists').where({ public_id: id }).first('folder_id')).to.deep.equal({ folder_id: folder.id });
      // The feed item follows the list's visibility.
      const row = await db()('lists').where({ public_id: id }).first('id');
      expect(await db()('activity_items').where({ subject_id: row.id }).first('visibility')).to.deep.equal({
        visibility: 'PRIVATE',
      });
      const out = await owner.site.patch(path, { folder: null });
      expect(out.body.data.folder).to.equal(null);
      // An empty body changes nothing, not even the time.
      await age(id);
      const same = await owner.site.patch(path, {});
      expect(same.status).to.equal(200);
      expect(same.body.data).to.include({ title: 'Renamed', updated_at: '2026-01-01T00:00:00.000Z' });
    });

    it('carries the games along a mode change: into the first tier, renamed tiers, out of tier mode', async () => {
      const { owner, games, path } = await ownerWithList('mode_owner', { mode: 'ranked' });
      const [a, b, c] = games;
      await owner.site.put(`${path}/items`, { items: [{ game_id: a.id }, { game_id: b.id }, { game_id: c.id }] });

      const tier = await owner.site.patch(path, { mode: 'tier' });
      expect(tier.status, tier.text).to.equal(200);
      expect(tier.body.data).to.include({ mode: 'tier', size: 3 });
      expect(tier.body.data.tiers).to.deep.equal(['S', 'A', 'B', 'C', 'D']);
      expect(tiersOf(tier)).to.deep.equal(['S', 'S', 'S']);

      const placed = await owner.site.put(`${path}/items`, {
        items: [
          { game_id: a.id, tier: 'S' },
          { game_id: b.id, tier: 'B' },
          { game_id: c.id, tier: 'D' },
        ],
      });
      expect(tiersOf(placed)).to.deep.equal(['S', 'B', 'D']);
      // S stays; B is renamed Bom in its place; D is gone, so its games fall into the last tier.
      const relabelled = await owner.site.patch(path, { tiers: ['S', 'A', 'Bom'] });
      expect(relabelled.status, relabelled.text).to.equal(200);
      expect(relabelled.body.data.tiers).to.deep.equal(['S', 'A', 'Bom']);
      expect(tiersOf(relabelled)).to.deep.equal(['S', 'Bom', 'Bom']);

      const plain = await owner.site.patch(path, { mode: 'list' });
      expect(plain.body.data).to.include({ mode: 'list', tiers: null, size: 3 });
      expect(tiersOf(plain)).to.deep.equal([null, null, null]);
      expect(gamesOf(plain)).to.deep.equal([a.id, b.id, c.id]);
      const row = await db()('lists').where({ public_id: plain.body.data.id }).first('id', 'tiers');
      expect(row.tiers).to.equal(null);
      expect(await db()('list_items').where({ list_id: row.id }).whereNotNull('tier')).to.have.length(0);

      const own = await owner.site.patch(path, { mode: 'tier', tiers: ['Top', 'Rest'] });
      expect(own.body.data.tiers).to.deep.equal(['Top', 'Rest']);
      expect(tiersOf(own)).to.deep.equal(['Top', 'Top', 'Top']);
    });

    it('refuses bad fields, items, labels off tier mode, and another account’s folder', async () => {
      const { owner, games, path } = await ownerWithList('patch_refused', { mode: 'tier' });
      const other = await namedPerson(app.client, 'patch_refused_other');
      await listFolder(other.account.id, { public_id: 'theirs-folder' });
      const patch = (body: unknown) => owner.site.patch(path, body);
      const cases: Array<[unknown, string, string]> = [
        [{ items: [] }, 'items', 'not_allowed'],
        [{ items: [{ game_id: games[0].id, tier: 'S' }] }, 'items', 'not_allowed'],
        [{ title: 'Fine', items: null }, 'items', 'not_allowed'],
        [{ title: '' }, 'title', 'too_short'],
        [{ title: null }, 'title', 'wrong_type'],
        [{ title: '\u00a0 ' }, 'title', 'fields_invalid'],
        [{ description: 'x'.repeat(2001) }, 'description', 'too_long'],
        [{ visibility: 'FRIENDS' }, 'visibility', 'not_allowed'],
        [{ mode: 'board' }, 'mode', 'not_allowed'],
        [{ folder: 'theirs-folder' }, 'folder', 'fields_invalid'],
        [{ folder: 3 }, 'folder', 'wrong_type'],
        [{ tiers: ['A', 'A'] }, 'tiers', 'duplicate'],
        [{ tiers: [] }, 'tiers', 'too_short'],
        [{ tiers: ['A', ' '] }, 'tiers.1', 'fields_invalid'],
        [{ mode: 'ranked', tiers: ['A'] }, 'tiers', 'fields_invalid'],
        [{ id: 'x' }, 'id', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) refusal(await patch(body), field, reason, JSON.stringify(body));
      const after = await owner.site.get(path);
      expect(after.body.data).to.include({ title: 'Start', mode: 'tier', folder: null });
      const ranked = await owner.site.patch(path, { mode: 'ranked' });
      refusal(await owner.site.patch(path, { tiers: ['S'] }), 'tiers', 'fields_invalid', 'labels of a ranked list');
      expect(ranked.body.data.tiers).to.equal(null);
    });
  });

  describe('PUT /lists/{id}/items', () => {
    it('replaces the items in the order sent; the size and the person’s lists follow', async () => {
      const { owner, games, id, path } = await ownerWithList('items_owner', { mode: 'ranked' });
      const [a, b, c] = games;
      await age(id);
      const first = await owner.site.put(`${path}/items`, { items: [{ game_id: c.id }, { game_id: a.id }] });
      expect(first.status, first.text).to.equal(200);
      expect(gamesOf(first)).to.deep.equal([c.id, a.id]);
      expect(first.body.data.items.map((i: { position: number }) => i.position)).to.deep.equal([1, 2]);
      expect(first.body.data.size).to.equal(2);
      expect(first.body.data.updated_at).not.to.equal('2026-01-01T00:00:00.000Z');
      const again = await owner.site.put(`${path}/items`, {
        items: [{ game_id: a.id }, { game_id: b.id }, { game_id: c.id }],
      });
      expect(gamesOf(again)).to.deep.equal([a.id, b.id, c.id]);
      const mine = await owner.site.get('/api/v1/profiles/items_owner/lists?sort=size');
      expect(mine.body.data[0]).to.include({ id, size: 3 });
      const empty = await owner.site.put(`${path}/items`, { items: [] });
      expect(empty.body.data).to.include({ size: 0 });
      expect(empty.body.data.items).to.deep.equal([]);
      expect((await db()('lists').where({ public_id: id }).first('preview_count')).preview_count).to.equal(0);
    });

    it('applies parallel replacements one after the other: the list ends as one of them sent it', async () => {
      const { owner, games, path } = await ownerWithList('items_parallel', { mode: 'ranked' });
      const orders = [games, [...games].reverse(), [games[1]], [games[2], games[0]]].map((order) =>
        order.map((game) => ({ game_id: game.id })),
      );
      const answers = await Promise.all(orders.map((items) => owner.site.put(`${path}/items`, { items })));
      expect(answers.map((res) => res.status)).to.deep.equal([200, 200, 200, 200]);
      const final = await owner.site.get(path);
      const sent = orders.map((items) => items.map((item) => item.game_id));
      expect(sent).to.deep.include(gamesOf(final));
      expect(final.body.data.size).to.equal(gamesOf(final).length);
    });

    it('refuses items the list cannot hold, naming the place, and leaves the items as they were', async () => {
      const { owner, games, path } = await ownerWithList('items_refused', { mode: 'tier', tiers: ['Top', 'Low'] });
      const [a, b] = games;
      const kept = await owner.site.put(`${path}/items`, { items: [{ game_id: a.id, tier: 'Low' }] });
      expect(kept.status, kept.text).to.equal(200);
      const put = (body: unknown) => owner.site.put(`${path}/items`, body);
      const cases: Array<[unknown, string, string]> = [
        [{}, 'items', 'missing'],
        [{ items: null }, 'items', 'wrong_type'],
        [{ items: [], title: 'x' }, 'title', 'unknown_field'],
        [{ items: [{ game_id: a.id, tier: 'Top' }, { game_id: b.id }] }, 'items.1.tier', 'fields_invalid'],
        [{ items: [{ game_id: a.id, tier: 'S' }] }, 'items.0.tier', 'fields_invalid'],
        [
          {
            items: [
              { game_id: b.id, tier: 'Top' },
              { game_id: b.id, tier: 'Low' },
            ],
          },
          'items.1.game_id',
          'fields_invalid',
        ],
        [{ items: [{ game_id: 999_999_999, tier: 'Top' }] }, 'items.0.game_id', 'fields_invalid'],
        [{ items: Array.from({ length: 501 }, (_, n) => ({ game_id: n + 1, tier: 'Top' })) }, 'items', 'too_long'],
      ];
      for (const [body, field, reason] of cases)
        refusal(await put(body), field, reason, JSON.stringify(body).slice(0, 70));
      const after = await owner.site.get(path);
      expect(after.body.data.items.map((i: { game_id: number; tier: string }) => [i.game_id, i.tier])).to.deep.equal([
        [a.id, 'Low'],
      ]);
      expect(after.body.data.size).to.equal(1);
    });
  });

  describe('another account’s list, a removed list, and the scopes', () => {
    it('answers 404 list_not_found to anyone but the owner, and to ids that name nothing', async () => {
      const { owner, games, id, path } = await ownerWithList('owned_list');
      const stranger = await namedPerson(app.client, 'owned_list_stranger');
      for (const [label, res] of [
        ['patch', await stranger.site.patch(path, { title: 'Mine now' })],
        ['put', await stranger.site.put(`${path}/items`, { items: [{ game_id: games[0].id }] })],
        ['delete', await stranger.site.delete(path)],
        ['unknown', await owner.site.patch('/api/v1/lists/no-such-list', { title: 'x' })],
        ['unknown put', await owner.site.put('/api/v1/lists/no-such-list/items', { items: [] })],
        ['unknown delete', await owner.site.delete('/api/v1/lists/no-such-list')],
        ['a uuid', await owner.site.delete('/api/v1/lists/6a1f3c2e-9b8d-4e7f-a0c1-2d3e4f5a6b7c')],
      ] as const) {
        expect(res.status, label).to.equal(404);
        expect(res.body.error, label).to.include({ code: 'not_found', reason: 'list_not_found' });
      }
      expect((await owner.site.get(path)).body.data).to.include({ id, title: 'Start', size: 0 });
    });

    it('refuses changes to a list moderation removed (403 removed), and lets its owner delete it', async () => {
      const { owner, games, id, path } = await ownerWithList('removed_list');
      await db()('lists').where({ public_id: id }).update({ removed_at: new Date() });
      for (const res of [
        await owner.site.patch(path, { title: 'Back' }),
        await owner.site.put(`${path}/items`, { items: [{ game_id: games[0].id }] }),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body.error).to.include({ code: 'forbidden', reason: 'removed' });
      }
      const deleted = await owner.site.delete(path);
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.deep.equal({ data: { id, deleted: true } });
    });

    it('refuses anonymous writes and keys without lists.write on every write', async () => {
      const { owner, games, path } = await ownerWithList('scoped_list');
      const reader = await appWithKey(owner.account.id, ['lists.read']);
      const writer = await appWithKey(owner.account.id, ['lists.write']);
      const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
      const writes = [
        (options = {}) => app.client.patch(path, { title: 'Key' }, options),
        (options = {}) => app.client.put(`${path}/items`, { items: [{ game_id: games[0].id }] }, options),
      ];
      for (const write of writes) {
        expect((await write()).status).to.equal(401);
        const refused = await write(as(reader.token));
        expect(refused.status).to.equal(403);
        expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'lists.write' });
        expect((await write(as(writer.token))).status).to.equal(200);
      }
      expect((await app.client.delete(path)).status).to.equal(401);
      const refused = await app.client.delete(path, as(reader.token));
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'lists.write' });
      expect((await app.client.delete(path, as(writer.token))).status).to.equal(200);
    });
  });

  describe('DELETE /lists/{id}', () => {
    it('deletes the list with its items, its feed item and the comments on it', async () => {
      const { owner, games, id, path } = await ownerWithList('delete_owner');
      const reader = await namedPerson(app.client, 'delete_reader');
      await owner.site.put(`${path}/items`, { items: [{ game_id: games[0].id }, { game_id: games[1].id }] });
      const row = await db()('lists').where({ public_id: id }).first('id');
      await comment(reader.account.id, owner.account.id, { target_kind: 'LIST', target_id: row.id, body: 'Nice' });
      expect((await owner.site.get(path)).body.data.comments).to.equal(1);
      const res = await owner.site.delete(path);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ data: { id, deleted: true } });
      expect(await db()('list_items').where({ list_id: row.id })).to.have.length(0);
      expect(await db()('activity_items').where({ kind: 'list', subject_id: row.id })).to.have.length(0);
      expect(await db()('comments').where({ target_kind: 'LIST', target_id: row.id })).to.have.length(0);
      expect((await owner.site.get(path)).status).to.equal(404);
      expect((await owner.site.delete(path)).status).to.equal(404);
      expect((await owner.site.get('/api/v1/profiles/delete_owner/lists')).body.page.total_items).to.equal(0);
    });
  });
});
