// Idempotency-Key on uploads (the parts count, not the boundary) and on every POST route of the router
// (docs/api-notes.md), over real HTTP with the probe routes of test/helpers/idempotency-probes.ts.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { UPLOAD_LIMIT_BYTES } from '../../api/middleware/multipart.js';
import { routeLayers } from '../../api/openapi/build-document.js';
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { appRouter } from '../helpers/app-router.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { keyed, probe, probes, replayed } from '../helpers/idempotency-probes.js';
import { useTestApp } from '../helpers/test-app.js';

describe('Idempotency-Key on uploads and on every POST route', () => {
  useCleanDatabase();
  const app = useTestApp({ extraRoutes: [probes()] });

  beforeEach(() => {
    probe.answer = 'created';
  });

  describe('uploads', () => {
    const form = (bytes: Buffer) => {
      const data = new FormData();
      data.append('image', new Blob([bytes], { type: 'image/png' }), 'picture.png');
      return data;
    };

    it('replays the same file (under a new boundary) and refuses another file with the key', async () => {
      const { site } = await signedInClient(app.client);
      const key = randomUUID();
      const before = probe.uploads;
      const file = Buffer.alloc(200_000, 7);
      const first = await site.request('POST', '/api/v1/probe/upload', { raw: form(file), ...keyed(key) });
      const again = await site.request('POST', '/api/v1/probe/upload', { raw: form(file), ...keyed(key) });
      expect(first.status, first.text).to.equal(201);
      expect(first.body.data.bytes).to.equal(200_000);
      expect(again.status).to.equal(201);
      expect(replayed(again)).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(probe.uploads - before).to.equal(1);

      // The boundary is new on every request; only the parts count.
      const boundary = (type: string) => /boundary=(.+)$/.exec(type)![1];
      const sameFileAgain = await site.request('POST', '/api/v1/probe/upload', { raw: form(file) });
      expect(sameFileAgain.status).to.equal(201);
      const [keyedType, bareType] = probe.uploadTypes.slice(-2);
      expect(boundary(keyedType)).not.to.equal(boundary(bareType));

      const other = Buffer.alloc(200_000, 8);
      const refused = await site.request('POST', '/api/v1/probe/upload', { raw: form(other), ...keyed(key) });
      expect(refused.status).to.equal(409);
      expect(refused.body.error.reason).to.equal('idempotency_mismatch');
      expect(probe.uploads - before).to.equal(2);
    });

    it('hands an upload larger than the limit to the route, which refuses it without taking the key', async () => {
      const { site } = await signedInClient(app.client);
      const key = randomUUID();
      const big = Buffer.alloc(UPLOAD_LIMIT_BYTES + 1024 * 1024 + 10, 1);
      const res = await site.request('POST', '/api/v1/probe/upload', { raw: form(big), ...keyed(key) });
      expect(res.status).to.equal(400);
      expect(res.body.error.reason).to.equal('too_large');
      expect(await db()('idempotency_keys').where({ key })).to.have.length(0);
    });
  });

  describe('every POST route of the router', () => {
    /** A path of the pattern with made-up values: the routes answer what they answer to such a request. */
    const concrete = (pattern: string) =>
      pattern
        .replace(/:(id|rid)\b/g, randomUUID())
        .replace(/:slug\b/g, 'no-such-game')
        .replace(/:[A-Za-z_]+/g, 'nothing');

    it('takes the header: no 500, no refusal of the header, and a repeat answers the same', async function () {
      this.timeout(60000);
      const posts = routeLayers(appRouter())
        .filter((layer) => layer.methods.includes('post') && layer.path.startsWith('/api/v1/'))
        .map((layer) => layer.path);
      expect(posts.length).to.be.greaterThan(20);
      const { site, totpSecret } = await signedInClient(app.client, { twoFactor: true });
      expect((await site.post('/api/auth/two-factor', { code: currentTotp(totpSecret!) })).status).to.equal(200);
      let replays = 0;
      for (const pattern of posts) {
        const path = concrete(pattern);
        const key = `every-post ${pattern}`;
        const first = await site.post(path, {}, keyed(key));
        const where = `POST ${pattern}: ${first.status} ${first.text}`;
        expect(first.status, where).to.be.below(500);
        expect(first.body?.error?.field, where).not.to.equal('Idempotency-Key');
        const second = await site.post(path, {}, keyed(key));
        expect(second.status, where).to.equal(first.status);
        if (replayed(second) === 'true') {
          replays += 1;
          expect(second.body, where).to.deep.equal(first.body);
        }
      }
      // Routes whose access declaration refuses this caller (staff, Arcade terms) answer before the key.
      expect(replays).to.be.greaterThan(posts.length / 2);
    });
  });
});
