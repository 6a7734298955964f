// Authentication rules 1 to 10 on real access declarations: probe routes declared like the API's own
// (public, scoped, session only with second factor and recent sign-in), plus GET /me and allowances.
import Router from '@koa/router';
import { expect } from 'chai';
import type { AppState } from '../../api/context.js';
import { publicRoute, scoped, sessionOnly } from '../../api/middleware/access.js';
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { Allowances } from '../../shared/keys/allowances.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { ageSession, appWithKey, buildAccount, signedInClient } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { startTestApp, useTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

function probes(): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/probe' });
  const answer = (ctx: { body: unknown; state: AppState }) => {
    ctx.body = { data: { account: ctx.state.caller?.account.id ?? null } };
  };
  router.get('/public', publicRoute('catalog'), answer);
  router.get('/scoped', scoped('profile.read', 'read'), answer);
  router.post('/write', scoped('profile.write', 'write'), answer);
  router.get('/session', sessionOnly({ allowance: 'read' }), answer);
  router.get('/mfa', sessionOnly({ mfa: true }), answer);
  router.get('/verified', sessionOnly({ mfaVerified: true }), answer);
  router.get('/recent', sessionOnly({ recent: true }), answer);
  return router;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('authentication and access', () => {
  useCleanDatabase();
  const app = useTestApp({ extraRoutes: [probes()] });

  describe('keys that are not live answer 401 invalid_key alike, on every kind of route', () => {
    async function keysInEveryState() {
      const { account } = await buildAccount();
      const scopes = ['profile.read', 'profile.write'] as const;
      const revoked = await appWithKey(account.id, [...scopes]);
      await db()('api_keys').where({ id: revoked.key.id }).update({ revoked_at: new Date() });
      const expired = await appWithKey(account.id, [...scopes], { expires_in_days: 1 });
      await db()('api_keys')
        .where({ id: expired.key.id })
        .update({ expires_at: new Date(Date.now() - 1000) });
      const deleted = await appWithKey(account.id, [...scopes]);
      await db()('apps').where({ id: deleted.app.id }).delete();
      return {
        malformed: 'jgt_live_NOT-A-KEY',
        'wrong prefix': `sk_live_${'a'.repeat(32)}`,
        unknown: `jgt_live_${'0'.repeat(32)}`,
        revoked: revoked.token,
        expired: expired.token,
        'of a deleted app': deleted.token,
      };
    }

    it('on public, scoped and session-only routes, with the same body', async () => {
      const tokens = await keysInEveryState();
      const bodies = new Set<string>();
      for (const [state, token] of Object.entries(tokens)) {
        for (const path of ['/probe/public', '/probe/scoped', '/probe/session', '/api/v1/me']) {
          const res = await app.client.get(path, { headers: bearer(token) });
          expect(res.status, `${state} on ${path}`).to.equal(401);
          bodies.add(res.text);
        }
      }
      expect([...bodies]).to.deep.equal(['{"error":{"code":"invalid_key","message":"The API key is not valid."}}']);
    });

    it('for a header that is not a Bearer token', async () => {
      for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', '', `Token jgt_live_${'a'.repeat(32)}`]) {
        const res = await app.client.get('/probe/public', { headers: { authorization: header } });
        expect(res.status, JSON.stringify(header)).to.equal(401);
        expect(res.body.error.code).to.equal('invalid_key');
      }
    });

    it('even when a valid session cookie is also sent: the header decides', async () => {
      const { site, account } = await signedInClient(app.client);
      const { key, token } = await appWithKey(account.id, ['profile.read']);
      await db()('api_keys').where({ id: key.id }).update({ revoked_at: new Date() });
      const res = await site.get('/probe/scoped', { headers: bearer(token) });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_key');
      expect((await site.get('/probe/scoped')).status, 'the cookie alone still works').to.equal(200);
    });
  });

  describe('live keys', () => {
    it('run as the key’s owner where the scope is held', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id, ['profile.read']);
      const res = await app.client.get('/probe/scoped', { headers: bearer(token) });
      expect(res.status).to.equal(200);
      expect(res.body.data.account).to.equal(account.id);
    });

    it('answer 403 insufficient_scope naming the scope they lack', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id, ['profile.read']);
      const res = await app.client.post('/probe/write', {}, { headers: bearer(token) });
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({
        error: {
          code: 'insufficient_scope',
          message: 'The API key lacks the scope profile.write.',
          scope: 'profile.write',
        },
      });
    });

    it('see a scope removed from their app on the very next request', async () => {
      const { site, account } = await signedInClient(app.client);
      const { app: made, token } = await appWithKey(account.id, ['profile.read']);
      expect((await app.client.get('/probe/scoped', { headers: bearer(token) })).status).to.equal(200);
      await site.patch(`/api/v1/account/apps/${made.id}`, { scopes: [] });
      const res = await app.client.get('/probe/scoped', { headers: bearer(token) });
      expect(res.status).to.equal(403);
      expect(res.body.error.scope).to.equal('profile.read');
      await site.patch(`/api/v1/account/apps/${made.id}`, { scopes: ['profile.read'] });
      expect((await app.client.get('/probe/scoped', { headers: bearer(token) })).status).to.equal(200);
    });

    it('get 403 forbidden on session-only routes', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id, ['profile.read', 'profile.write']);
      const res = await app.client.get('/probe/session', { headers: bearer(token) });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    });

    it('skip the origin rule', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id, ['profile.read']);
      const res = await app.client.get('/probe/scoped', {
        headers: { ...bearer(token), origin: 'https://elsewhere.example' },
      });
      expect(res.status).to.equal(200);
    });

    it('record last_used_at, but not on every request', async () => {
      const { account } = await buildAccount();
      const { key, token } = await appWithKey(account.id, ['profile.read']);
      await app.client.get('/probe/scoped', { headers: bearer(token) });
      const first = await until(
        async () => (await db()('api_keys').where({ id: key.id }).first()).last_used_at as Date | null,
      );
      await app.client.get('/probe/scoped', { headers: bearer(token) });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = (await db()('api_keys').where({ id: key.id }).first()).last_used_at as Date;
      expect(second.getTime()).to.equal(first.getTime());
    });
  });

  describe('sessions and anonymous callers', () => {
    it('a session needs no scope and spends no allowance', async () => {
      const { site, account } = await signedInClient(app.client);
      for (const path of ['/probe/scoped', '/probe/session', '/probe/public']) {
        const res = await site.get(path);
        expect(res.status, path).to.equal(200);
        expect(res.body.data.account).to.equal(account.id);
        for (const header of ['limit', 'remaining', 'reset', 'resource'])
          expect(res.headers.get(`x-ratelimit-${header}`)).to.equal(null);
      }
      expect((await site.post('/probe/write', {})).status).to.equal(200);
    });

    it('nobody may read public routes, and gets 401 unauthorized elsewhere', async () => {
      expect((await app.client.get('/probe/public')).status).to.equal(200);
      for (const path of ['/probe/scoped', '/probe/session', '/api/v1/me']) {
        const res = await app.client.get(path);
        expect(res.status, path).to.equal(401);
        expect(res.body.error.code).to.equal('unauthorized');
      }
    });

    it('a session owing its second factor gets 403 mfa_required where a route demands it', async () => {
      const { email, password, totpSecret } = await buildAccount({ twoFactor: true });
      const site = new SiteClient(app.client);
      await site.post('/api/auth/sign-in', { email, password });
      expect((await site.get('/probe/session')).status, 'other routes still answer').to.equal(200);
      for (const path of ['/probe/mfa', '/probe/verified']) {
        const res = await site.get(path);
        expect(res.status, path).to.equal(403);
        expect(res.body.error).to.deep.include({ code: 'forbidden', reason: 'mfa_required' });
      }
      await site.post('/api/auth/two-factor', { code: currentTotp(totpSecret!) });
      expect((await site.get('/probe/mfa')).status).to.equal(200);
      expect((await site.get('/probe/verified')).status).to.equal(200);
    });

    it('"verified with two-factor" needs two-factor passed, not merely off', async () => {
      const { site } = await signedInClient(app.client);
      expect((await site.get('/probe/mfa')).status).to.equal(200);
      const res = await site.get('/probe/verified');
      expect(res.status).to.equal(403);
      expect(res.body.error.reason).to.equal('mfa_required');
    });

    it('sensitive routes need a sign-in from the last 15 minutes', async () => {
      const { site, sessionId } = await signedInClient(app.client);
      expect((await site.get('/probe/recent')).status).to.equal(200);
      await ageSession(sessionId, 16);
      const res = await site.get('/probe/recent');
      expect(res.status).to.equal(403);
      expect(res.body.error).to.deep.include({ code: 'forbidden', reason: 'reauthentication_required' });
    });
  });

  describe('GET /api/v1/me', () => {
    it('names the account and the key for a key (no scope needed)', async () => {
      const { account } = await buildAccount({ username: 'me_tester' });
      const { key, token, app: made } = await appWithKey(account.id);
      const res = await app.client.get('/api/v1/me', { headers: bearer(token) });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({
        account: { id: account.id, username: 'me_tester', display_name: null },
        key: { id: key.id, app_id: made.id, scopes: [] },
      });
      expect(res.headers.get('x-ratelimit-resource')).to.equal('read');
    });

    it('has key null for a session', async () => {
      const { site, account } = await signedInClient(app.client);
      const res = await site.get('/api/v1/me');
      expect(res.body.data).to.deep.equal({
        account: { id: account.id, username: null, display_name: null },
        key: null,
      });
    });
  });

  describe('allowances', () => {
    it('every answer to a key carries X-RateLimit-* for the route’s allowance, refusals included', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id, ['profile.read']);
      const ok = await app.client.get('/probe/scoped', { headers: bearer(token) });
      expect(ok.headers.get('x-ratelimit-limit')).to.equal('5000');
      expect(ok.headers.get('x-ratelimit-remaining')).to.equal('4999');
      expect(ok.headers.get('x-ratelimit-resource')).to.equal('read');
      const reset = Number(ok.headers.get('x-ratelimit-reset'));
      expect(reset - Date.now() / 1000).to.be.within(3590, 3601);
      const refused = await app.client.post('/probe/write', {}, { headers: bearer(token) });
      expect(refused.status).to.equal(403);
      expect(refused.headers.get('x-ratelimit-limit')).to.equal('1000');
      expect(refused.headers.get('x-ratelimit-resource')).to.equal('write');
      const catalog = await app.client.get('/probe/public', { headers: bearer(token) });
      expect(catalog.headers.get('x-ratelimit-limit')).to.equal('10000');
      expect(catalog.headers.get('x-ratelimit-resource')).to.equal('catalog');
    });

    it('counts each allowance apart, and per key', async () => {
      const { account } = await buildAccount();
      const a = await appWithKey(account.id, ['profile.read', 'profile.write']);
      const b = await appWithKey(account.id, ['profile.read']);
      await app.client.get('/probe/scoped', { headers: bearer(a.token) });
      await app.client.get('/probe/scoped', { headers: bearer(a.token) });
      const write = await app.client.post('/probe/write', {}, { headers: bearer(a.token) });
      expect(write.headers.get('x-ratelimit-remaining')).to.equal('999');
      const other = await app.client.get('/probe/scoped', { headers: bearer(b.token) });
      expect(other.headers.get('x-ratelimit-remaining')).to.equal('4999');
    });

    describe('when used up', () => {
      let small: TestApp;
      before(async () => {
        small = await startTestApp({
          extraRoutes: [probes()],
          allowances: new Allowances({ read: 3, write: 2, catalog: 2 }),
        });
      });
      after(() => small.close());

      it('answers 429 rate_limited with retry_after and Retry-After, then allows again after the reset', async () => {
        const { account } = await buildAccount();
        const { key, token } = await appWithKey(account.id, ['profile.read']);
        const remaining = [];
        for (let i = 0; i < 3; i += 1) {
          const res = await small.client.get('/probe/scoped', { headers: bearer(token) });
          expect(res.status).to.equal(200);
          remaining.push(res.headers.get('x-ratelimit-remaining'));
        }
        expect(remaining).to.deep.equal(['2', '1', '0']);
        const over = await small.client.get('/probe/scoped', { headers: bearer(token) });
        expect(over.status).to.equal(429);
        expect(over.body.error.code).to.equal('rate_limited');
        expect(over.body.error.retry_after).to.be.within(3590, 3600);
        expect(over.headers.get('retry-after')).to.equal(String(over.body.error.retry_after));
        expect(over.headers.get('x-ratelimit-remaining')).to.equal('0');
        expect(
          (await small.client.get('/probe/public', { headers: bearer(token) })).status,
          'another allowance is untouched',
        ).to.equal(200);

        // The hour passes: move the window's end into the past instead of waiting.
        await db()('rate_limits')
          .where({ key: `allowance:read:${key.id}` })
          .update({ expire: Date.now() - 1 });
        const again = await small.client.get('/probe/scoped', { headers: bearer(token) });
        expect(again.status).to.equal(200);
        expect(again.headers.get('x-ratelimit-remaining')).to.equal('2');
      });

      it('counts together across API processes (two apps on one database)', async () => {
        const second = await startTestApp({
          extraRoutes: [probes()],
          allowances: new Allowances({ read: 3, write: 2, catalog: 2 }),
        });
        try {
          const { account } = await buildAccount();
          const { token } = await appWithKey(account.id, ['profile.read']);
          const statuses = [];
          for (const client of [small.client, second.client, small.client, second.client]) {
            statuses.push((await client.get('/probe/scoped', { headers: bearer(token) })).status);
          }
          expect(statuses).to.deep.equal([200, 200, 200, 429]);
        } finally {
          await second.close();
        }
      });
    });
  });
});
