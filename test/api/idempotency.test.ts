// Idempotency-Key on every POST under /api/v1 (docs/api-notes.md), over real HTTP: a repeat replays the
// first answer without running the route, another request with the key is refused, requests sent at once
// run once, keys are per caller, 4xx answers are kept, streamed answers give the key back, and bad keys are
// refused. Elsewhere: holders that go away, expiry and the writes that go with an answer
// (idempotency-holders.test.ts); uploads and every POST route (idempotency-routes.test.ts); a route waiting
// for a worker (idempotency-hand-over.test.ts); a web process killed mid-request
// (test/processes/idempotency-crash.test.ts).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { expect } from 'chai';
import { createApp, updateApp } from '../../shared/keys/apps.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { appCount, bearer, draftCount, keyed, probe, probes, replayed } from '../helpers/idempotency-probes.js';
import { useTestApp } from '../helpers/test-app.js';

describe('Idempotency-Key on POST under /api/v1', () => {
  useCleanDatabase();
  const app = useTestApp({ extraRoutes: [probes()] });

  beforeEach(() => {
    probe.answer = 'created';
  });

  describe('a repeat of the same request', () => {
    it('replays the first answer (status, body, headers) and creates one app', async () => {
      const { site, account } = await signedInClient(app.client);
      const key = randomUUID();
      const first = await site.post('/api/v1/account/apps', { name: 'Stats bot', description: 'Posts' }, keyed(key));
      expect(first.status).to.equal(201);
      expect(replayed(first)).to.equal(null);

      // The same body with its keys in another order is the same request.
      const second = await site.post('/api/v1/account/apps', { description: 'Posts', name: 'Stats bot' }, keyed(key));
      expect(second.status).to.equal(201);
      expect(second.body).to.deep.equal(first.body);
      expect(second.headers.get('content-type')).to.equal(first.headers.get('content-type'));
      expect(replayed(second)).to.equal('true');
      expect(second.headers.get('x-request-id')).not.to.equal(first.headers.get('x-request-id'));
      expect(await appCount(account.id)).to.equal(1);
    });

    it('replays Location and the answer’s own status, and never runs the route again', async () => {
      const { site } = await signedInClient(app.client);
      const key = randomUUID();
      const before = probe.runs;
      const first = await site.post('/api/v1/probe/things', { n: 1 }, keyed(key));
      const again = await site.post('/api/v1/probe/things', { n: 1 }, keyed(key));
      expect(first.status).to.equal(201);
      expect(again.status).to.equal(201);
      expect(again.body).to.deep.equal(first.body);
      expect(again.headers.get('location')).to.equal(first.headers.get('location')).and.to.be.a('string');
      expect(replayed(again)).to.equal('true');
      expect(probe.runs - before).to.equal(1);
    });

    it('charges a key its allowance on a replay too (the headers are the new request’s)', async () => {
      const { account } = await signedInClient(app.client);
      const { token } = await appWithKey(account.id, ['profile.write']);
      const key = randomUUID();
      const first = await app.client.post('/api/v1/drafts', { kind: 'note', title: 'x' }, keyed(key, bearer(token)));
      const again = await app.client.post('/api/v1/drafts', { kind: 'note', title: 'x' }, keyed(key, bearer(token)));
      expect(first.status).to.equal(201);
      expect(again.status).to.equal(201);
      expect(replayed(again)).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(Number(again.headers.get('x-ratelimit-remaining'))).to.equal(
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
      expect(await draftCount(account.id)).to.equal(1);
    });
  });

  describe('another request with the same key', () => {
    it('is 409 conflict reason idempotency_mismatch for another body, and does nothing', async () => {
      const { site, account } = await signedInClient(app.client);
      const key = randomUUID();
      expect((await site.post('/api/v1/account/apps', { name: 'first' }, keyed(key))).status).to.equal(201);
      const other = await site.post('/api/v1/account/apps', { name: 'second' }, keyed(key));
      expect(other.status).to.equal(409);
      expect(other.body.error).to.include({ code: 'conflict', reason: 'idempotency_mismatch' });
      expect(replayed(other)).to.equal(null);
      expect(await appCount(account.id)).to.equal(1);
    });

    it('is 409 idempotency_mismatch for another query on the same path', async () => {
      const { site } = await signedInClient(app.client);
      const key = randomUUID();
      expect((await site.post('/api/v1/probe/things?size=1', { n: 1 }, keyed(key))).status).to.equal(201);
      const other = await site.post('/api/v1/probe/things?size=2', { n: 1 }, keyed(key));
      expect(other.status).to.equal(409);
      expect(other.body.error.reason).to.equal('idempotency_mismatch');
    });

    it('on another path (or method) is a key of its own', async () => {
      const { site, account } = await signedInClient(app.client);
      const key = randomUUID();
      const made = await site.post('/api/v1/account/apps', { name: 'with keys' }, keyed(key));
      expect(made.status).to.equal(201);
      const keyOfApp = await site.post(`/api/v1/account/apps/${made.body.data.id}/keys`, { name: 'k' }, keyed(key));
      expect(keyOfApp.status).to.equal(201);
      expect(replayed(keyOfApp)).to.equal(null);
      expect(await appCount(account.id)).to.equal(1);
    });
  });

  describe('requests sent at once', () => {
    it('run once: 10 with one key make one app, one 201 that ran, the rest 409 in progress or replays', async () => {
      const { site, account } = await signedInClient(app.client);
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => site.post('/api/v1/account/apps', { name: 'once' }, keyed(key))),
      );
      const ran = answers.filter((res) => res.status === 201 && replayed(res) === null);
      const replays = answers.filter((res) => res.status === 201 && replayed(res) === 'true');
      const waiting = answers.filter(
        (res) => res.status === 409 && res.body.error.reason === 'idempotency_in_progress',
      );
      expect(ran, answers.map((res) => `${res.status} ${res.text}`).join('\n')).to.have.length(1);
      expect(ran.length + replays.length + waiting.length).to.equal(10);
      for (const res of replays) expect(res.body).to.deep.equal(ran[0].body);
      expect(await appCount(account.id)).to.equal(1);
      const after = await site.post('/api/v1/account/apps', { name: 'once' }, keyed(key));
      expect(after.status).to.equal(201);
      expect(replayed(after)).to.equal('true');
      expect(after.body).to.deep.equal(ran[0].body);
    });

    it('answer 409 idempotency_in_progress while the first still runs, then replay it', async () => {
      const { site } = await signedInClient(app.client);
      const key = randomUUID();
      probe.answer = 'hold';
      probe.held = new Promise<void>((resolve) => (probe.release = resolve));
      const before = probe.runs;
      const first = site.post('/api/v1/probe/things', { n: 2 }, keyed(key));
      while (probe.runs === before) await new Promise((resolve) => setTimeout(resolve, 10));
      const during = await site.post('/api/v1/probe/things', { n: 2 }, keyed(key));
      expect(during.status).to.equal(409);
      expect(during.body.error).to.include({ code: 'conflict', reason: 'idempotency_in_progress' });
      probe.release();
      expect((await first).status).to.equal(201);
      const after = await site.post('/api/v1/probe/things', { n: 2 }, keyed(key));
      expect(after.status).to.equal(201);
      expect(replayed(after)).to.equal('true');
      expect(probe.runs - before).to.equal(1);
    });
  });

  describe('keys belong to a caller', () => {
    it('another account with the same key makes its own app', async () => {
      const one = await signedInClient(app.client);
      const two = await signedInClient(app.client);
      const key = 'shared-key-0001';
      const a = await one.site.post('/api/v1/account/apps', { name: 'same' }, keyed(key));
      const b = await two.site.post('/api/v1/account/apps', { name: 'same' }, keyed(key));
      expect(a.status).to.equal(201);
      expect(b.status).to.equal(201);
      expect(replayed(b)).to.equal(null);
      expect(b.body.data.id).not.to.equal(a.body.data.id);
      // Another body is no mismatch either: the key is another caller's.
      const c = await two.site.post('/api/v1/account/apps', { name: 'other' }, keyed('shared-key-0002'));
      const d = await one.site.post('/api/v1/account/apps', { name: 'different' }, keyed('shared-key-0002'));
      expect([c.status, d.status]).to.deep.equal([201, 201]);
      expect(await appCount(one.account.id)).to.equal(2);
      expect(await appCount(two.account.id)).to.equal(2);
    });

    it('a session and each API key of the same account have keys of their own', async () => {
      const { site, account } = await signedInClient(app.client);
      const first = await appWithKey(account.id, ['profile.write']);
      const second = await appWithKey(account.id, ['profile.write']);
      const key = randomUUID();
      const draft = { kind: 'note', title: 'one key, three callers' };
      const bySession = await site.post('/api/v1/drafts', draft, keyed(key));
      const byFirst = await app.client.post('/api/v1/drafts', draft, keyed(key, bearer(first.token)));
      const bySecond = await app.client.post('/api/v1/drafts', draft, keyed(key, bearer(second.token)));
      for (const res of [bySession, byFirst, bySecond]) {
        expect(res.status).to.equal(201);
        expect(replayed(res)).to.equal(null);
      }
      expect(await draftCount(account.id)).to.equal(3);
      const again = await app.client.post('/api/v1/drafts', draft, keyed(key, bearer(first.token)));
      expect(replayed(again)).to.equal('true');
      expect(again.body).to.deep.equal(byFirst.body);
      const sessionAgain = await site.post('/api/v1/drafts', draft, keyed(key));
      expect(sessionAgain.body).to.deep.equal(bySession.body);
      expect(await draftCount(account.id)).to.equal(3);
    });

    it('a refused caller takes no key: the same key works once access is right', async () => {
      const { account } = await signedInClient(app.client);
      const { app: made, token } = await appWithKey(account.id, ['profile.read']);
      const key = randomUUID();
      const refused = await app.client.post('/api/v1/drafts', { kind: 'note' }, keyed(key, bearer(token)));
      expect(refused.status).to.equal(403);
      await updateApp(db(), account.id, made.id, { scopes: ['profile.write'] });
      const allowed = await app.client.post('/api/v1/drafts', { kind: 'note' }, keyed(key, bearer(token)));
      expect(allowed.status).to.equal(201);
      expect(replayed(allowed)).to.equal(null);
    });
  });

  describe('answers kept and answers given back', () => {
    it('keeps a 4xx and replays it even after the state changed', async () => {
      const { site, account } = await signedInClient(app.client);
      for (let i = 0; i < 10; i += 1) await createApp(db(), account.id, { name: `app ${i}` });
      const key = randomUUID();
      const full = await site.post('/api/v1/account/apps', { name: 'eleventh' }, keyed(key));
      expect(full.status).to.equal(409);
      expect(full.body.error.reason).to.equal('app_limit_reached');
      await db()('apps').where({ account_id: account.id, name: 'app 0' }).delete();
      const again = await site.post('/api/v1/account/apps', { name: 'eleventh' }, keyed(key));
      expect(again.status).to.equal(409);
      expect(again.body).to.deep.equal(full.body);
      expect(replayed(again)).to.equal('true');
      expect(await appCount(account.id)).to.equal(9);
      const fresh = await site.post('/api/v1/account/apps', { name: 'eleventh' }, keyed(randomUUID()));
      expect(fresh.status).to.equal(201);

      const bad = { name: 'n'.repeat(61) };
      const invalid = await site.post('/api/v1/account/apps', bad, keyed('invalid-once'));
      const invalidAgain = await site.post('/api/v1/account/apps', bad, keyed('invalid-once'));
      expect([invalid.status, invalidAgain.status]).to.deep.equal([400, 400]);
      expect(invalidAgain.body).to.deep.equal(invalid.body);
      expect(replayed(invalidAgain)).to.equal('true');
    });

    for (const [answer, status] of [
      ['fault', 500],
      ['unavailable', 503],
      ['rate_limited', 429],
    ] as const) {
      it(`gives the key back after a ${status} (${answer}): the retry runs`, async () => {
        const { site } = await signedInClient(app.client);
        const key = randomUUID();
        const before = probe.runs;
        probe.answer = answer;
        const failed = await site.post('/api/v1/probe/things', { n: 3 }, keyed(key));
        expect(failed.status).to.equal(status);
        expect(await db()('idempotency_keys').where({ key })).to.have.length(0);
        probe.answer = 'created';
        const retried = await site.post('/api/v1/probe/things', { n: 3 }, keyed(key));
        expect(retried.status).to.equal(201);
        expect(replayed(retried)).to.equal(null);
        expect(probe.runs - before).to.equal(2);
        const replay = await site.post('/api/v1/probe/things', { n: 3 }, keyed(key));
        expect(replayed(replay)).to.equal('true');
        expect(probe.runs - before).to.equal(2);
      });
    }

    it('does not keep a streamed answer: the key goes back', async () => {
      const { site } = await signedInClient(app.client);
      const key = randomUUID();
      probe.answer = 'stream';
      const before = probe.runs;
      const first = await site.post('/api/v1/probe/things', { n: 4 }, keyed(key));
      const second = await site.post('/api/v1/probe/things', { n: 4 }, keyed(key));
      expect([first.text, second.text]).to.deep.equal(['streamed', 'streamed']);
      expect(replayed(second)).to.equal(null);
      expect(probe.runs - before).to.equal(2);
    });

    it('stores the answer sealed, not readable in the database', async () => {
      const { site } = await signedInClient(app.client);
      const key = randomUUID();
      const made = await site.post('/api/v1/account/apps', { name: 'sealed' }, keyed(key));
      const minted = await site.post(`/api/v1/account/apps/${made.body.data.id}/keys`, { name: 'k' }, keyed(key));
      expect(minted.status).to.equal(201);
      const rows = await db()('idempotency_keys').where({ key });
      expect(rows).to.have.length(2);
      for (const row of rows) {
        expect(row.state).to.equal('done');
        expect(row.body).to.match(/^v1\./);
        expect(row.body).not.to.include(minted.body.data.token);
      }
      const replay = await site.post(`/api/v1/account/apps/${made.body.data.id}/keys`, { name: 'k' }, keyed(key));
      expect(replay.body.data.token).to.equal(minted.body.data.token);
    });
  });

  describe('the header itself', () => {
    it('refuses a key that is not 1 to 255 printable ASCII characters, before anything runs', async () => {
      const { site, account } = await signedInClient(app.client);
      const cases: Array<[string, string]> = [
        ['', 'too_short'],
        ['k'.repeat(256), 'too_long'],
        ['clé', 'bad_format'],
        ['tab\there', 'bad_format'],
      ];
      for (const [key, reason] of cases) {
        const res = await site.post('/api/v1/account/apps', { name: 'never' }, keyed(key));
        expect(res.status, JSON.stringify(key)).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field: 'Idempotency-Key', reason });
      }
      expect(await appCount(account.id)).to.equal(0);
      const fine = await site.post('/api/v1/account/apps', { name: 'ok' }, keyed(`a b ${'k'.repeat(251)}`));
      expect(fine.status).to.equal(201);
    });

    it('refuses the header sent twice', async () => {
      const { site, account } = await signedInClient(app.client);
      const url = new URL('/api/v1/account/apps', app.client.baseUrl);
      const answer = await new Promise<{ status: number; body: { error: Record<string, unknown> } }>(
        (resolve, reject) => {
          const req = http.request(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin: site.origin!,
              cookie: site.cookie!,
              'x-forwarded-for': site.ip,
              'idempotency-key': ['one', 'two'],
            },
          });
          req.on('response', (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          });
          req.on('error', reject);
          req.end(JSON.stringify({ name: 'twice' }));
        },
      );
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.include({ field: 'Idempotency-Key', reason: 'duplicate' });
      expect(await appCount(account.id)).to.equal(0);
    });

    it('changes nothing when absent: two requests make two apps, and no key is stored', async () => {
      const { site, account } = await signedInClient(app.client);
      const a = await site.post('/api/v1/account/apps', { name: 'twice' });
      const b = await site.post('/api/v1/account/apps', { name: 'twice' });
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(replayed(b)).to.equal(null);
      expect(await appCount(account.id)).to.equal(2);
      expect(await db()('idempotency_keys').where({ account_id: account.id })).to.have.length(0);
    });

    it('is ignored where it does not apply: other methods', async () => {
      const { site } = await signedInClient(app.client);
      const made = await site.post('/api/v1/account/apps', { name: 'patched' });
      const key = randomUUID();
      const one = await site.patch(`/api/v1/account/apps/${made.body.data.id}`, { name: 'a' }, keyed(key));
      const two = await site.patch(`/api/v1/account/apps/${made.body.data.id}`, { name: 'b' }, keyed(key));
      expect([one.status, two.status]).to.deep.equal([200, 200]);
      expect(two.body.data.name).to.equal('b');
      expect(replayed(two)).to.equal(null);
      expect(await db()('idempotency_keys').where({ key })).to.have.length(0);
    });
  });
});
