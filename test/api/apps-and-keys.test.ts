// Apps and keys of the account (spec: Account routes; DECISIONS: API keys), and the account's sessions.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { ageSession, appWithKey, buildAccount, signedInClient } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('account: apps, keys and sessions', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('apps', () => {
    it('creates an app with no permissions and the spec fields', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.post('/api/v1/account/apps', { name: 'Stats bot', description: 'Posts my stats' });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({
        name: 'Stats bot',
        description: 'Posts my stats',
        icon_url: null,
        active_keys: 0,
        last_used_at: null,
        arcade: null,
      });
      expect(res.body.data.scopes).to.deep.equal([]);
      expect(res.body.data.id).to.match(/^[0-9a-f-]{36}$/);
      const bare = await site.post('/api/v1/account/apps', { name: 'No description' });
      expect(bare.body.data.description).to.equal('');
    });

    it('lists the most recently changed first, whole on one page', async () => {
      const { site } = await signedInClient(app.client);
      const none = await site.get('/api/v1/account/apps');
      expect(none.body).to.deep.equal({
        data: [],
        page: { number: 1, size: 0, total_items: 0, total_pages: 0, has_more: false },
      });
      const first = (await site.post('/api/v1/account/apps', { name: 'first' })).body.data;
      await site.post('/api/v1/account/apps', { name: 'second' });
      await site.patch(`/api/v1/account/apps/${first.id}`, { description: 'touched' });
      const list = await site.get('/api/v1/account/apps');
      expect(list.body.data.map((a: { name: string }) => a.name)).to.deep.equal(['first', 'second']);
      expect(list.body.page).to.deep.equal({ number: 1, size: 2, total_items: 2, total_pages: 1, has_more: false });
    });

    it('replaces the full scope set on PATCH', async () => {
      const { site } = await signedInClient(app.client);
      const { id } = (await site.post('/api/v1/account/apps', { name: 'x' })).body.data;
      const set = await site.patch(`/api/v1/account/apps/${id}`, { scopes: ['profile.read', 'library.read'] });
      expect(set.status).to.equal(200);
      expect(set.body.data.scopes).to.deep.equal(['profile.read', 'library.read']);
      const narrowed = await site.patch(`/api/v1/account/apps/${id}`, { scopes: ['catalog.read'] });
      expect(narrowed.body.data.scopes).to.deep.equal(['catalog.read']);
      const renamed = await site.patch(`/api/v1/account/apps/${id}`, { name: 'renamed' });
      expect(renamed.body.data).to.include({ name: 'renamed' });
      expect(renamed.body.data.scopes, 'scopes not sent stay').to.deep.equal(['catalog.read']);
    });

    const refusals: Array<[string, Record<string, unknown>, string, string]> = [
      ['an unknown scope', { scopes: ['profile.read', 'admin'] }, 'scopes', 'not_allowed'],
      ['identify, a player grant', { scopes: ['identify'] }, 'scopes', 'not_allowed'],
      ['a repeated scope', { scopes: ['profile.read', 'profile.read'] }, 'scopes', 'duplicate'],
      ['scopes that are not a list', { scopes: 'profile.read' }, 'scopes', 'wrong_type'],
      ['a 61-character name', { name: 'n'.repeat(61) }, 'name', 'too_long'],
      ['an empty name', { name: '' }, 'name', 'too_short'],
      ['a 401-character description', { description: 'd'.repeat(401) }, 'description', 'too_long'],
      ['an unknown field', { icon: 'x' }, 'icon', 'unknown_field'],
    ];
    for (const [what, body, field, reason] of refusals) {
      it(`refuses ${what} with 400 naming ${field}`, async () => {
        const { site } = await signedInClient(app.client);
        const { id } = (await site.post('/api/v1/account/apps', { name: 'x' })).body.data;
        const res = await site.patch(`/api/v1/account/apps/${id}`, body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ code: 'invalid_request', field, reason });
      });
    }

    it('accepts 60 and 400 characters', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.post('/api/v1/account/apps', { name: 'n'.repeat(60), description: 'd'.repeat(400) });
      expect(res.status).to.equal(201);
    });

    it('refuses a create without a name', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.post('/api/v1/account/apps', { description: 'x' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ field: 'name', reason: 'missing' });
    });

    it('holds at most 10 apps: the 11th is 409 conflict', async () => {
      const { site } = await signedInClient(app.client);
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) => site.post('/api/v1/account/apps', { name: `app ${i}` })),
      );
      expect(made.map((r) => r.status)).to.deep.equal(Array(10).fill(201));
      const eleventh = await site.post('/api/v1/account/apps', { name: 'one too many' });
      expect(eleventh.status).to.equal(409);
      expect(eleventh.body.error).to.deep.include({
        code: 'conflict',
        reason: 'app_limit_reached',
        limit: 10,
        count: 10,
      });
    });

    it('deletes an app and its keys stop at once', async () => {
      const { site, account } = await signedInClient(app.client);
      const { app: made, token } = await appWithKey(account.id, ['profile.read']);
      expect((await app.client.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })).status).to.equal(
        200,
      );
      const res = await site.delete(`/api/v1/account/apps/${made.id}`);
      expect(res.status).to.equal(200);
      expect((await db()('api_keys').where({ app_id: made.id })).length).to.equal(0);
      const after = await app.client.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
      expect(after.status).to.equal(401);
      expect(after.body.error.code).to.equal('invalid_key');
      expect((await site.get(`/api/v1/account/apps/${made.id}`)).status).to.equal(404);
    });

    it('never shows another account’s app: read, change, delete and its keys are 404', async () => {
      const owner = await buildAccount();
      const { app: theirs, key } = await appWithKey(owner.account.id);
      const { site } = await signedInClient(app.client);
      const attempts = [
        await site.get(`/api/v1/account/apps/${theirs.id}`),
        await site.patch(`/api/v1/account/apps/${theirs.id}`, { name: 'mine now' }),
        await site.delete(`/api/v1/account/apps/${theirs.id}`),
        await site.get(`/api/v1/account/apps/${theirs.id}/keys`),
        await site.post(`/api/v1/account/apps/${theirs.id}/keys`, { name: 'k' }),
        await site.post('/api/v1/account/keys', { app_id: theirs.id, name: 'k' }),
        await site.delete(`/api/v1/account/keys/${key.id}`),
        await site.get('/api/v1/account/apps/not-a-uuid'),
        await site.delete('/api/v1/account/keys/not-a-uuid'),
      ];
      for (const res of attempts) {
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
      const untouched = await db()('apps').where({ id: theirs.id }).first();
      expect(untouched.name).to.equal(theirs.name);
      expect((await db()('api_keys').where({ id: key.id }).first()).revoked_at).to.equal(null);
    });
  });

  describe('keys', () => {
    it('creates a key on the app route: the token once, in the DECISIONS format', async () => {
      const { site } = await signedInClient(app.client);
      const { id } = (await site.post('/api/v1/account/apps', { name: 'x' })).body.data;
      const res = await site.post(`/api/v1/account/apps/${id}/keys`, { name: 'server', expires_in_days: 30 });
      expect(res.status).to.equal(201);
      const { token, ...record } = res.body.data;
      expect(token).to.match(new RegExp(`^${config().keyPrefix}[0-9a-f]{32}$`));
      expect(record).to.include({
        app_id: id,
        name: 'server',
        last4: token.slice(-4),
        state: 'live',
        revoked_at: null,
        last_used_at: null,
      });
      expect(new Date(record.expires_at).getTime() - Date.now()).to.be.within(30 * 86400000 - 60000, 30 * 86400000);

      const lists = [
        await site.get('/api/v1/account/keys'),
        await site.get(`/api/v1/account/apps/${id}/keys`),
        await site.get(`/api/v1/account/apps/${id}`),
      ];
      // Both lists of keys come whole, on one page.
      for (const list of lists.slice(0, 2)) {
        expect(list.body.data.map((k: { id: string }) => k.id)).to.deep.equal([record.id]);
        expect(list.body.page).to.deep.equal({ number: 1, size: 1, total_items: 1, total_pages: 1, has_more: false });
      }
      const stored = await db()('api_keys').where({ id: record.id }).first();
      for (const list of lists) {
        expect(list.status).to.equal(200);
        expect(list.text).not.to.include(token);
        expect(list.text).not.to.include(stored.token_hash);
      }
      expect(stored.token_hash).to.match(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored)).not.to.include(token);
    });

    it('creates a key on the account route, never expiring with null', async () => {
      const { site } = await signedInClient(app.client);
      const { id } = (await site.post('/api/v1/account/apps', { name: 'x' })).body.data;
      const res = await site.post('/api/v1/account/keys', { app_id: id, name: 'forever', expires_in_days: null });
      expect(res.status).to.equal(201);
      expect(res.body.data.expires_at).to.equal(null);
    });

    const bad: Array<[unknown, string]> = [
      [0, 'out_of_range'],
      [3651, 'out_of_range'],
      [1.5, 'wrong_type'],
      ['30', 'wrong_type'],
    ];
    for (const [days, reason] of bad) {
      it(`refuses expires_in_days ${JSON.stringify(days)}`, async () => {
        const { site } = await signedInClient(app.client);
        const { id } = (await site.post('/api/v1/account/apps', { name: 'x' })).body.data;
        const res = await site.post(`/api/v1/account/apps/${id}/keys`, { name: 'k', expires_in_days: days });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ field: 'expires_in_days', reason });
      });
    }

    it('accepts expires_in_days 1 and 3650', async () => {
      const { site } = await signedInClient(app.client);
      const { id } = (await site.post('/api/v1/account/apps', { name: 'x' })).body.data;
      for (const days of [1, 3650])
        expect(
          (await site.post(`/api/v1/account/apps/${id}/keys`, { name: 'k', expires_in_days: days })).status,
        ).to.equal(201);
    });

    it('refuses a key without a name, or with a malformed app_id', async () => {
      const { site } = await signedInClient(app.client);
      const { id } = (await site.post('/api/v1/account/apps', { name: 'x' })).body.data;
      expect((await site.post(`/api/v1/account/apps/${id}/keys`, {})).body.error).to.deep.include({
        field: 'name',
        reason: 'missing',
      });
      expect((await site.post('/api/v1/account/keys', { app_id: 'abc', name: 'k' })).body.error).to.deep.include({
        field: 'app_id',
        reason: 'bad_format',
      });
    });

    it('revokes a key: 401 invalid_key from the next request, listed as revoked after the live ones', async () => {
      const { site, account } = await signedInClient(app.client);
      const { app: made, key, token } = await appWithKey(account.id);
      const second = (await site.post(`/api/v1/account/apps/${made.id}/keys`, { name: 'second' })).body.data;
      const revoked = await site.delete(`/api/v1/account/keys/${key.id}`);
      expect(revoked.status).to.equal(200);
      expect(revoked.body.data.state).to.equal('revoked');
      expect((await app.client.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })).status).to.equal(
        401,
      );
      const again = await site.delete(`/api/v1/account/keys/${key.id}`);
      expect(again.status).to.equal(200);
      const detail = await site.get(`/api/v1/account/apps/${made.id}`);
      expect(detail.body.data.keys.map((k: { id: string }) => k.id)).to.deep.equal([second.id, key.id]);
      expect(detail.body.data.active_keys).to.equal(1);
    });
  });

  describe('sessions', () => {
    it('lists where the account is signed in, marking the current one', async () => {
      const { site, email, password, sessionId } = await signedInClient(app.client);
      await new SiteClient(app.client).post(
        '/api/auth/sign-in',
        { email, password },
        { headers: { 'user-agent': 'Other Browser/1.0' } },
      );
      const res = await site.get('/api/v1/account/sessions');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.length(2);
      expect(res.body.page).to.deep.equal({ number: 1, size: 2, total_items: 2, total_pages: 1, has_more: false });
      const current = res.body.data.find((s: { current: boolean }) => s.current);
      expect(current.id).to.equal(sessionId);
      expect(res.body.data.some((s: { user_agent: string }) => s.user_agent === 'Other Browser/1.0')).to.equal(true);
      expect(res.headers.get('x-ratelimit-limit'), 'no allowance headers for a session').to.equal(null);
    });

    it('leaves out sessions idle for more than 30 days', async () => {
      const { site, email, password } = await signedInClient(app.client);
      const old = (await new SiteClient(app.client).post('/api/auth/sign-in', { email, password })).body.data.session
        .id;
      await ageSession(old, 30 * 24 * 60 + 1, 'last_seen_at');
      const res = await site.get('/api/v1/account/sessions');
      expect(res.body.data.map((s: { id: string }) => s.id)).not.to.include(old);
      expect(res.body.data).to.have.length(1);
      // The page counts what the list shows, not the idle session left out.
      expect(res.body.page).to.include({ size: 1, total_items: 1, total_pages: 1 });
    });

    it('ends another session, or the calling one', async () => {
      const { site, email, password, sessionId } = await signedInClient(app.client);
      const other = new SiteClient(app.client);
      const otherId = (await other.post('/api/auth/sign-in', { email, password })).body.data.session.id;
      expect((await site.delete(`/api/v1/account/sessions/${otherId}`)).status).to.equal(200);
      expect((await other.get('/api/auth/session')).status).to.equal(401);
      const own = await site.delete(`/api/v1/account/sessions/${sessionId}`);
      expect(own.status).to.equal(200);
      expect(own.body.data).to.include({ id: sessionId, current: true });
      expect((await site.get('/api/auth/session')).status).to.equal(401);
    });

    it('answers 404 for another account’s session', async () => {
      const { site } = await signedInClient(app.client);
      const { sessionId: theirs, site: them } = await signedInClient(app.client);
      expect((await site.delete(`/api/v1/account/sessions/${theirs}`)).status).to.equal(404);
      const malformed = await site.delete('/api/v1/account/sessions/not-a-session');
      expect(malformed.status).to.equal(404);
      expect(malformed.body.error.reason).to.equal('session_not_found');
      expect((await them.get('/api/auth/session')).status).to.equal(200);
    });

    it('is session only: a key gets 403 forbidden, nobody gets 401', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id, ['profile.read']);
      const byKey = await app.client.get('/api/v1/account/sessions', { headers: { authorization: `Bearer ${token}` } });
      expect(byKey.status).to.equal(403);
      expect(byKey.body.error.code).to.equal('forbidden');
      expect(byKey.headers.get('x-ratelimit-resource')).to.equal('read');
      expect((await app.client.get('/api/v1/account/apps')).status).to.equal(401);
    });
  });
});
