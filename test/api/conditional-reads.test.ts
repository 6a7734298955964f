// Conditional reads (issue #21, item 4): a weak ETag on every 200 JSON read, 304 for a matching
// If-None-Match (weak comparison, lists and `*`), and Cache-Control by kind of answer.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient, uniqueEmail } from '../helpers/factories.js';
import { catalogGame, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const WEAK_TAG = /^W\/"[A-Za-z0-9_-]{22}"$/;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('conditional reads and cache headers', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('ETag and If-None-Match', () => {
    it('tags a 200 JSON read and answers 304 with no body, keeping the headers a client needs', async () => {
      const { site } = await signedInClient(app.client);
      const first = await site.get('/api/v1/profile');
      expect(first.status).to.equal(200);
      const tag = first.headers.get('etag')!;
      expect(tag).to.match(WEAK_TAG);

      const again = await site.get('/api/v1/profile', { headers: { 'if-none-match': tag } });
      expect(again.status).to.equal(304);
      expect(again.text).to.equal('');
      expect(again.headers.get('etag')).to.equal(tag);
      expect(again.headers.get('cache-control')).to.equal('private, no-cache');
      expect(again.headers.get('vary')).to.equal('Authorization, Cookie, Origin');
      expect(again.headers.get('x-request-id')).to.be.a('string');
      expect(again.headers.get('content-type')).to.equal(null);
    });

    it('answers 200 with a new tag once the answer changed (a profile edit)', async () => {
      const { site } = await signedInClient(app.client);
      const before = (await site.get('/api/v1/profile')).headers.get('etag')!;
      expect((await site.patch('/api/v1/profile', { bio: 'Speedrunner.' })).status).to.equal(200);
      const after = await site.get('/api/v1/profile', { headers: { 'if-none-match': before } });
      expect(after.status).to.equal(200);
      expect(after.body.data.bio).to.equal('Speedrunner.');
      expect(after.headers.get('etag')).to.match(WEAK_TAG).and.not.equal(before);
      const same = await site.get('/api/v1/profile', { headers: { 'if-none-match': after.headers.get('etag')! } });
      expect(same.status).to.equal(304);
    });

    it('compares weakly, reads lists, and takes * as any current answer', async () => {
      const { site } = await signedInClient(app.client);
      const tag = (await site.get('/api/v1/profile')).headers.get('etag')!;
      const strong = tag.slice(2);
      const cases: Array<[string, number]> = [
        [tag, 304],
        [strong, 304],
        [`"nope", W/"other", ${tag}`, 304],
        [`W/"a",${strong}`, 304],
        ['*', 304],
        [' * ', 304],
        ['"nope", W/"other"', 200],
        [`${tag.slice(0, -2)}${tag.at(-2) === 'A' ? 'B' : 'A'}"`, 200],
        ['not a tag', 200],
        ['', 200],
      ];
      for (const [header, status] of cases) {
        const res = await site.get('/api/v1/profile', { headers: { 'if-none-match': header } });
        expect(res.status, `If-None-Match: ${header}`).to.equal(status);
        expect(res.headers.get('etag'), `If-None-Match: ${header}`).to.equal(tag);
      }
    });

    it('answers HEAD the same way', async () => {
      const { site } = await signedInClient(app.client);
      const tag = (await site.get('/api/v1/profile')).headers.get('etag')!;
      const head = await site.request('HEAD', '/api/v1/profile');
      expect([head.status, head.headers.get('etag')]).to.deep.equal([200, tag]);
      const matched = await site.request('HEAD', '/api/v1/profile', { headers: { 'if-none-match': tag } });
      expect(matched.status).to.equal(304);
    });

    it('keeps the allowance headers on a 304 to a key, which costs the allowance like a 200', async () => {
      const { account } = await signedInClient(app.client);
      const { token } = await appWithKey(account.id);
      const first = await app.client.get('/api/v1/me', { headers: bearer(token) });
      expect(first.status).to.equal(200);
      const remaining = Number(first.headers.get('x-ratelimit-remaining'));
      const again = await app.client.get('/api/v1/me', {
        headers: { ...bearer(token), 'if-none-match': first.headers.get('etag')! },
      });
      expect(again.status).to.equal(304);
      expect(again.headers.get('x-ratelimit-limit')).to.equal(first.headers.get('x-ratelimit-limit'));
      expect(again.headers.get('x-ratelimit-resource')).to.equal('read');
      expect(Number(again.headers.get('x-ratelimit-remaining'))).to.equal(remaining - 1);
      expect(again.headers.get('etag')).to.equal(first.headers.get('etag'));
    });

    it('gives different callers different tags when their answers differ', async () => {
      const one = await signedInClient(app.client);
      const two = await signedInClient(app.client);
      const tag = (await one.site.get('/api/v1/me')).headers.get('etag')!;
      const other = await two.site.get('/api/v1/me', { headers: { 'if-none-match': tag } });
      expect(other.status).to.equal(200);
      expect(other.body.data.account.id).to.equal(two.account.id);
    });

    it('tags the reference, whose JSON is sent as text', async () => {
      const first = await app.client.get('/api/v1/openapi.json');
      expect(first.headers.get('etag')).to.match(WEAK_TAG);
      const again = await app.client.get('/api/v1/openapi.json', {
        headers: { 'if-none-match': first.headers.get('etag')! },
      });
      expect(again.status).to.equal(304);
      expect(again.headers.get('cache-control')).to.equal('public, max-age=300');
    });

    it('tags no stream: the export answers in full whatever If-None-Match says', async () => {
      const { site } = await signedInClient(app.client);
      await site.put('/api/v1/account/username', { username: `exporter_${randomBytes(3).toString('hex')}` });
      const res = await site.get('/api/v1/account/export', { headers: { 'if-none-match': '*' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal(null);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.body.data.export_version).to.be.a('number');
    });

    it('tags no error and no write, and answers them whatever If-None-Match says', async () => {
      const { site } = await signedInClient(app.client);
      const anonymous = await app.client.get('/api/v1/profile', { headers: { 'if-none-match': '*' } });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.headers.get('etag')).to.equal(null);
      const write = await site.patch('/api/v1/profile', { bio: 'x' }, { headers: { 'if-none-match': '*' } });
      expect(write.status).to.equal(200);
      expect(write.headers.get('etag')).to.equal(null);
    });
  });

  describe('Cache-Control', () => {
    it('keeps `public, max-age=60` on a public catalog read, for anyone, 304 included', async () => {
      const game = await catalogGame();
      const { account } = await signedInClient(app.client);
      const { token } = await appWithKey(account.id, ['catalog.read']);
      for (const headers of [{}, bearer(token)]) {
        const res = await app.client.get(`/api/v1/games/${game.slug}`, { headers });
        expect(res.status).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('public, max-age=60');
        expect(res.headers.get('vary')).to.equal(null);
        const again = await app.client.get(`/api/v1/games/${game.slug}`, {
          headers: { ...headers, 'if-none-match': res.headers.get('etag')! },
        });
        expect(again.status).to.equal(304);
        expect(again.headers.get('cache-control')).to.equal('public, max-age=60');
      }
    });

    it('answers `private, no-cache` with Vary to reads that depend on the caller', async () => {
      const username = `cached_${randomBytes(3).toString('hex')}`;
      const person = await namedPerson(app.client, username);
      const { token } = await appWithKey(person.account.id, ['profile.read']);
      const reads = [
        await person.site.get('/api/v1/profile'),
        await app.client.get('/api/v1/profile', { headers: bearer(token) }),
        // A public route read anonymously: another caller may see another answer.
        await app.client.get(`/api/v1/profiles/${username}`),
      ];
      for (const res of reads) {
        expect(res.status).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('private, no-cache');
        expect(res.headers.get('vary')).to.equal('Authorization, Cookie, Origin');
        expect(res.headers.get('etag')).to.match(WEAK_TAG);
      }
    });

    it('keeps what a route says of itself (no-store)', async () => {
      const { site } = await signedInClient(app.client);
      const layout = await site.get('/api/v1/profile/layout');
      expect(layout.status).to.equal(200);
      expect(layout.headers.get('cache-control')).to.equal('no-store');
      expect((await app.client.get('/health')).headers.get('cache-control')).to.equal('no-store');
    });

    it('answers `no-store` to writes, a new key’s token among them', async () => {
      const { site } = await signedInClient(app.client);
      const created = await site.post('/api/v1/account/apps', { name: 'Tracker' });
      expect(created.status).to.equal(201);
      expect(created.headers.get('cache-control')).to.equal('no-store');
      const key = await site.post(`/api/v1/account/apps/${created.body.data.id}/keys`, { name: 'laptop' });
      expect(key.status).to.equal(201);
      expect(key.body.data.token).to.be.a('string');
      expect(key.headers.get('cache-control')).to.equal('no-store');
      expect(key.headers.get('etag')).to.equal(null);
    });

    it('answers `no-store` to errors: refusals, validation, unknown paths, wrong methods', async () => {
      const { site } = await signedInClient(app.client);
      const errors = [
        await app.client.get('/api/v1/profile'),
        await app.client.get('/api/v1/me', { headers: bearer('jgt_live_nonsense') }),
        await app.client.get('/api/v1/games/ratings?ids=nope'),
        await app.client.get('/api/v1/no-such-thing'),
        await app.client.post('/health', {}),
        await site.patch('/api/v1/profile', { bio: 'a'.repeat(501) }),
      ];
      expect(errors.map((res) => res.status)).to.deep.equal([401, 401, 400, 404, 405, 400]);
      for (const res of errors) {
        expect(res.headers.get('cache-control'), res.text).to.equal('no-store');
        expect(res.headers.get('etag')).to.equal(null);
      }
    });

    it('answers `no-store` to a read that sets a cookie (a magic link)', async () => {
      const email = uniqueEmail('cached');
      expect((await new SiteClient(app.client).post('/api/auth/magic-link', { email })).status).to.equal(200);
      const [mail] = await db()('email_outbox').where({ to_address: email });
      const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text_body as string)![1];
      const res = await app.client.get(`/api/auth/magic-link/verify?token=${token}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('set-cookie')).to.match(/sid=/);
      expect(res.headers.get('cache-control')).to.equal('no-store');
    });
  });
});
