// Whose address the per-address limits count (TRUST_PROXY), and the session cookie behind a proxy that
// terminates TLS. Real apps on loopback ports; the "proxy" is the X-Forwarded-For header a proxy would
// append to, and rotating its leftmost entries is what an attacker can do.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount, PASSWORD, uniqueEmail } from '../helpers/factories.js';
import type { TestClient } from '../helpers/http-client.js';
import { SITE_ORIGIN, useTestApp } from '../helpers/test-app.js';

/** A wrong guess for a new email each time, so only the per-address count can stop them. */
async function guesses(client: TestClient, forwarded: (i: number) => string | null, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const via = forwarded(i);
    const res = await client.post(
      '/api/auth/sign-in',
      { email: uniqueEmail(), password: 'wrong password' },
      { headers: { origin: SITE_ORIGIN, ...(via ? { 'x-forwarded-for': via } : {}) } },
    );
    statuses.push(res.status);
  }
  return statuses;
}

describe('the client address (TRUST_PROXY)', () => {
  useCleanDatabase();

  describe('TRUST_PROXY=0 (the default): the socket address, forwarded headers ignored', () => {
    const app = useTestApp({ trustProxy: 0 });

    it('locks out an address that rotates X-Forwarded-For after 5 failures', async () => {
      const statuses = await guesses(app.client, (i) => `203.0.113.${i + 1}`, 7);
      expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429, 429]);
    });
  });

  describe('TRUST_PROXY=1: the address the one trusted proxy saw (the rightmost entry)', () => {
    const app = useTestApp({ trustProxy: 1 });

    it('ignores entries a client wrote before the proxy appended the real one', async () => {
      const statuses = await guesses(app.client, (i) => `198.51.100.${i + 1}, 192.0.2.10`, 7);
      expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429, 429]);
    });

    it('counts two clients behind the proxy apart', async () => {
      await guesses(app.client, () => '192.0.2.20', 5);
      expect(await guesses(app.client, () => '192.0.2.20', 1)).to.deep.equal([429]);
      expect(await guesses(app.client, () => '192.0.2.21', 1)).to.deep.equal([401]);
    });
  });

  describe('an https PUBLIC_URL behind a proxy that sends no X-Forwarded-Proto', () => {
    const app = useTestApp({ trustProxy: 1, publicUrl: 'https://jogatina.example' });

    it('signs in with a Secure __Host- cookie (the request itself looks like http)', async () => {
      const { email } = await buildAccount();
      const res = await app.client.post(
        '/api/auth/sign-in',
        { email, password: PASSWORD },
        { headers: { origin: 'https://jogatina.example', 'x-forwarded-for': '192.0.2.30' } },
      );
      expect(res.status, res.text).to.equal(200);
      const cookie = res.headers.get('set-cookie') ?? '';
      expect(cookie).to.match(/^__Host-sid=/);
      expect(cookie).to.match(/;\s*secure/i);
      const out = await app.client.post('/api/auth/sign-out', undefined, {
        headers: { origin: 'https://jogatina.example', cookie: cookie.split(';')[0] },
      });
      expect(out.status).to.be.oneOf([200, 204]);
      expect(out.headers.get('set-cookie') ?? '').to.match(/^__Host-sid=;.*secure/i);
    });
  });
});
