// GET/PATCH /profile and the drafts routes: scopes, limits, only sent fields change, ownership.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, buildAccount, signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

describe('profile and drafts', () => {
  useCleanDatabase();
  const app = useTestApp();
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  describe('GET and PATCH /profile', () => {
    it('reads the defaults before anything was saved', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.get('/api/v1/profile');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({
        display_name: '',
        bio: '',
        library_visibility: 'PUBLIC',
        avatar_url: null,
        banner_url: null,
      });
    });

    it('changes only the fields sent', async () => {
      const { site } = await signedInClient(app.client);
      await site.patch('/api/v1/profile', { bio: 'Speedrunner.', display_name: 'Ana' });
      const res = await site.patch('/api/v1/profile', { pronouns: 'she/her', library_visibility: 'FOLLOWERS' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({
        bio: 'Speedrunner.',
        display_name: 'Ana',
        pronouns: 'she/her',
        library_visibility: 'FOLLOWERS',
      });
      expect((await site.get('/api/v1/profile')).body.data).to.include({ bio: 'Speedrunner.', pronouns: 'she/her' });
    });

    const limits: Array<[string, number]> = [
      ['display_name', 60],
      ['bio', 500],
      ['pronouns', 30],
      ['thought', 100],
      ['video_username', 60],
      ['photo_username', 30],
      ['microblog_username', 15],
    ];
    for (const [field, max] of limits) {
      it(`takes ${field} up to ${max} characters and refuses ${max + 1}`, async () => {
        const { site } = await signedInClient(app.client);
        expect((await site.patch('/api/v1/profile', { [field]: 'a'.repeat(max) })).status).to.equal(200);
        const over = await site.patch('/api/v1/profile', { [field]: 'a'.repeat(max + 1) });
        expect(over.status).to.equal(400);
        expect(over.body.error).to.deep.include({ field, reason: 'too_long' });
      });
    }

    it('refuses an unknown visibility, a wrong type and an unknown field', async () => {
      const { site } = await signedInClient(app.client);
      expect((await site.patch('/api/v1/profile', { library_visibility: 'FRIENDS' })).body.error).to.deep.include({
        field: 'library_visibility',
        reason: 'not_allowed',
      });
      expect((await site.patch('/api/v1/profile', { bio: 5 })).body.error).to.deep.include({
        field: 'bio',
        reason: 'wrong_type',
      });
      expect((await site.patch('/api/v1/profile', { avatar: 'x' })).body.error).to.deep.include({
        field: 'avatar',
        reason: 'unknown_field',
      });
    });

    it('needs profile.read to read and profile.write to change with a key', async () => {
      const { account } = await buildAccount();
      const reader = await appWithKey(account.id, ['profile.read']);
      expect((await app.client.get('/api/v1/profile', { headers: bearer(reader.token) })).status).to.equal(200);
      const denied = await app.client.patch('/api/v1/profile', { bio: 'x' }, { headers: bearer(reader.token) });
      expect(denied.status).to.equal(403);
      expect(denied.body.error).to.deep.include({ code: 'insufficient_scope', scope: 'profile.write' });
      const writer = await appWithKey(account.id, ['profile.write']);
      expect(
        (await app.client.patch('/api/v1/profile', { bio: 'by key' }, { headers: bearer(writer.token) })).body.data.bio,
      ).to.equal('by key');
      expect((await app.client.get('/api/v1/profile', { headers: bearer(writer.token) })).body.error.scope).to.equal(
        'profile.read',
      );
    });
  });

  describe('drafts', () => {
    it('creates, reads, lists newest first, changes and deletes the owner’s drafts', async () => {
      const { site } = await signedInClient(app.client);
      const made = await site.post('/api/v1/drafts', {
        kind: 'review',
        title: 'Celeste',
        body: 'Hard but fair.',
        game: 'celeste',
      });
      expect(made.status).to.equal(201);
      expect(made.body.data).to.include({ kind: 'review', title: 'Celeste', body: 'Hard but fair.', game: 'celeste' });
      const id = made.body.data.id;
      await site.post('/api/v1/drafts', { kind: 'note' });
      const changed = await site.patch(`/api/v1/drafts/${id}`, { body: 'Hard, fair, and kind.' });
      expect(changed.body.data).to.include({ title: 'Celeste', body: 'Hard, fair, and kind.' });
      const list = await site.get('/api/v1/drafts');
      expect(list.body.data.map((d: { id: string }) => d.id)[0]).to.equal(id);
      expect(list.body.page).to.deep.equal({ number: 1, size: 50, total_items: 2, total_pages: 1, has_more: false });
      expect((await site.get(`/api/v1/drafts/${id}`)).body.data.id).to.equal(id);
      expect((await site.delete(`/api/v1/drafts/${id}`)).body.data).to.deep.equal({ id, deleted: true });
      expect((await site.get(`/api/v1/drafts/${id}`)).status).to.equal(404);
    });

    it('answers 404 for another account’s draft, on every route', async () => {
      const owner = await signedInClient(app.client);
      const id = (await owner.site.post('/api/v1/drafts', { kind: 'list', title: 'Mine' })).body.data.id;
      const { site } = await signedInClient(app.client);
      for (const res of [
        await site.get(`/api/v1/drafts/${id}`),
        await site.patch(`/api/v1/drafts/${id}`, { title: 'Yours?' }),
        await site.delete(`/api/v1/drafts/${id}`),
        await site.get('/api/v1/drafts/nope'),
      ]) {
        expect(res.status).to.equal(404);
      }
      expect((await site.get('/api/v1/drafts')).body.data).to.deep.equal([]);
      expect((await owner.site.get(`/api/v1/drafts/${id}`)).body.data.title).to.equal('Mine');
    });

    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'kind', 'missing'],
      [{ kind: 'poem' }, 'kind', 'not_allowed'],
      [{ kind: 'note', title: 't'.repeat(201) }, 'title', 'too_long'],
      [{ kind: 'note', body: 'b'.repeat(20001) }, 'body', 'too_long'],
      [{ kind: 'note', game: 'Not A Slug' }, 'game', 'bad_format'],
      [{ kind: 'note', html: '<p>' }, 'html', 'unknown_field'],
    ];
    for (const [body, field, reason] of refusals) {
      it(`refuses ${JSON.stringify(body).slice(0, 40)} naming ${field}`, async () => {
        const { site } = await signedInClient(app.client);
        const res = await site.post('/api/v1/drafts', body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ field, reason });
      });
    }

    it('holds at most 100 drafts per account', async () => {
      const { site, account } = await signedInClient(app.client);
      await db()('drafts').insert(
        Array.from({ length: 100 }, (_, i) => ({ account_id: account.id, kind: 'note', title: `n${i}` })),
      );
      const res = await site.post('/api/v1/drafts', { kind: 'note' });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.deep.include({ reason: 'draft_limit_reached', limit: 100, count: 100 });
      expect((await site.get('/api/v1/drafts?page=2')).body.page).to.include({
        number: 2,
        total_items: 100,
        has_more: false,
      });
      expect((await site.get('/api/v1/drafts?page=0')).body.error).to.deep.include({
        field: 'page',
        reason: 'out_of_range',
      });
    });
  });
});
