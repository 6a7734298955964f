// CORS (issue #21, item 5): browser integrations with keys may call /api/v1 from any origin; credentials
// are never allowed cross-origin, the session cookie counts only from the site's own origin, and the
// sign-in service gives other origins nothing.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appRouter } from '../helpers/app-router.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { SITE_ORIGIN, useTestApp } from '../helpers/test-app.js';

const ELSEWHERE = 'https://tracker.example';
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id'];
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Resource',
  'X-Request-Id',
  'Retry-After',
  'ETag',
  'Idempotent-Replayed',
  'Location',
];
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const list = (header: string | null) =>
  (header ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function preflight(method: string, headers = 'authorization') {
  return {
    headers: { origin: ELSEWHERE, 'access-control-request-method': method, 'access-control-request-headers': headers },
  };
}

describe('CORS', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('preflights', () => {
    it('answers a preflight for a key-based route: 204, its methods, the allowed headers, a max-age', async () => {
      const res = await app.client.request('OPTIONS', '/api/v1/me', preflight('GET'));
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(list(res.headers.get('access-control-allow-methods'))).to.have.members(['GET', 'HEAD']);
      expect(list(res.headers.get('access-control-allow-headers'))).to.have.members(ALLOWED_HEADERS);
      expect(res.headers.get('access-control-max-age')).to.equal('7200');
      expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
    });

    it('names the methods of the path, not only the one asked about', async () => {
      const profile = await app.client.request('OPTIONS', '/api/v1/profile', preflight('PATCH', 'content-type'));
      expect(list(profile.headers.get('access-control-allow-methods'))).to.have.members(['GET', 'HEAD', 'PATCH']);
      const follow = await app.client.request('OPTIONS', '/api/v1/social/following/someone', preflight('DELETE'));
      expect(list(follow.headers.get('access-control-allow-methods'))).to.have.members(['PUT', 'DELETE']);
      // A method the path does not take: the browser reads the list and refuses the call itself.
      const other = await app.client.request('OPTIONS', '/api/v1/me', preflight('DELETE'));
      expect(other.status).to.equal(204);
      expect(list(other.headers.get('access-control-allow-methods'))).to.not.include('DELETE');
    });

    it('answers every path of the router with exactly the methods the router takes there', async () => {
      const layers = appRouter().stack.filter((layer) => layer.methods.length > 0);
      const paths = [...new Set(layers.map((layer) => String(layer.path)))];
      const open = paths.filter((path) => path.startsWith('/api/v1/') || path.startsWith('/health'));
      expect(open.length).to.be.greaterThan(90);
      for (const path of open) {
        const concrete = path.replace(/:(\w+)/g, (_, name: string) => `sample-${name.length}`);
        // A concrete path can match several routes (`/profiles/levels` and `/profiles/:username`).
        const expected = new Set(layers.filter((layer) => layer.match(concrete)).flatMap((layer) => layer.methods));
        const res = await app.client.request('OPTIONS', concrete, preflight([...expected].at(-1)!));
        expect(res.status, concrete).to.equal(204);
        expect(list(res.headers.get('access-control-allow-methods')), concrete).to.have.members([...expected]);
      }
      // The sign-in service is on the router, but not open to other origins.
      const closed = paths.filter((path) => !open.includes(path));
      expect(closed.filter((path) => !path.startsWith('/api/auth/'))).to.deep.equal(['/api/account/password']);
    });

    it('answers a preflight for an unknown path 404 like any unknown path', async () => {
      const res = await app.client.request('OPTIONS', '/api/v1/no-such-thing', preflight('GET'));
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
      expect(res.headers.get('access-control-allow-methods')).to.equal(null);
    });

    it('leaves a plain OPTIONS (no preflight) to the router, as before', async () => {
      const res = await app.client.request('OPTIONS', '/api/v1/profile');
      expect(res.status).to.equal(200);
      expect(list(res.headers.get('allow'))).to.include.members(['GET', 'PATCH']);
      expect(res.headers.get('access-control-allow-methods')).to.equal(null);
    });
  });

  describe('cross-origin requests', () => {
    it('answers a GET with a key `*` and exposes the allowance and request headers', async () => {
      const { account } = await signedInClient(app.client);
      const { token } = await appWithKey(account.id);
      const res = await app.client.get('/api/v1/me', { headers: { ...bearer(token), origin: ELSEWHERE } });
      expect(res.status).to.equal(200);
      expect(res.body.data.account.id).to.equal(account.id);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(list(res.headers.get('access-control-expose-headers'))).to.have.members(EXPOSED_HEADERS);
      expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
      expect(res.headers.get('x-ratelimit-remaining')).to.be.a('string');
    });

    it('lets the script read errors too', async () => {
      const bad = await app.client.get('/api/v1/me', {
        headers: { ...bearer('jgt_live_nonsense'), origin: ELSEWHERE },
      });
      expect(bad.status).to.equal(401);
      expect(bad.headers.get('access-control-allow-origin')).to.equal('*');
      expect(list(bad.headers.get('access-control-expose-headers'))).to.include('X-Request-Id');
      const unknown = await app.client.get('/api/v1/no-such-thing', { headers: { origin: ELSEWHERE } });
      expect([unknown.status, unknown.headers.get('access-control-allow-origin')]).to.deep.equal([404, '*']);
    });

    it('answers /health and the reference to other origins', async () => {
      for (const path of ['/health', '/api/v1/openapi.json']) {
        const res = await app.client.get(path, { headers: { origin: ELSEWHERE } });
        expect(res.status, path).to.equal(200);
        expect(res.headers.get('access-control-allow-origin'), path).to.equal('*');
      }
    });

    it('does not authenticate a cross-origin request by its session cookie, nor allow credentials', async () => {
      const { site } = await signedInClient(app.client);
      const cookie = site.cookie!;
      const foreign = [
        await app.client.get('/api/v1/me', { headers: { cookie, origin: ELSEWHERE } }),
        await app.client.get('/api/v1/me', { headers: { cookie, 'sec-fetch-site': 'cross-site' } }),
        await app.client.get('/api/v1/me', { headers: { cookie, origin: 'null' } }),
        await app.client.get('/api/v1/me', { headers: { cookie } }),
      ];
      for (const res of foreign) {
        expect(res.status).to.equal(401);
        expect(res.body.error.code).to.equal('unauthorized');
        expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
      }
      const write = await app.client.patch(
        '/api/v1/profile',
        { bio: 'forged' },
        { headers: { cookie, origin: ELSEWHERE } },
      );
      expect(write.status).to.equal(401);
      expect((await site.get('/api/v1/profile')).body.data.bio).to.equal('');
      const preflighted = await app.client.request('OPTIONS', '/api/v1/profile', {
        headers: { ...preflight('PATCH').headers, cookie },
      });
      expect(preflighted.headers.get('access-control-allow-credentials')).to.equal(null);
    });

    it('answers the site’s own origin as before, with the same headers', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.get('/api/v1/me');
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
      const fetched = await app.client.get('/api/v1/me', {
        headers: { cookie: site.cookie!, origin: SITE_ORIGIN },
      });
      expect(fetched.status).to.equal(200);
    });
  });

  describe('the sign-in service', () => {
    it('gives other origins no CORS allowance, preflight or not', async () => {
      for (const path of ['/api/auth/sign-in', '/api/auth/session', '/api/account/password']) {
        const res = await app.client.request('OPTIONS', path, preflight('POST', 'content-type'));
        expect(res.headers.get('access-control-allow-origin'), path).to.equal(null);
        expect(res.headers.get('access-control-allow-methods'), path).to.equal(null);
      }
      const signIn = await app.client.post(
        '/api/auth/sign-in',
        { email: 'someone@example.test', password: 'whatever it is' },
        { headers: { origin: ELSEWHERE } },
      );
      expect(signIn.status).to.equal(403);
      expect(signIn.body.error.reason).to.equal('cross_origin');
      expect(signIn.headers.get('access-control-allow-origin')).to.equal(null);
      const { site } = await signedInClient(app.client);
      const session = await site.get('/api/auth/session');
      expect(session.status).to.equal(200);
      expect(session.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });

  describe('other paths', () => {
    it('lets media be read by any origin, and keeps the docs page to itself', async () => {
      const media = await app.client.get('/media/avatars/ab/nobody.png', { headers: { origin: ELSEWHERE } });
      expect(media.status).to.equal(404);
      expect(media.headers.get('access-control-allow-origin')).to.equal('*');
      const docs = await app.client.get('/docs', { headers: { origin: ELSEWHERE } });
      expect(docs.status).to.equal(200);
      expect(docs.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });
});
