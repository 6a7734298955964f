// Idempotency-Key: what a key becomes over time and when its holder goes away (expiry after 24 hours, a
// holder that dies frees its key at once, an older process's hold), and the request's writes going with its
// answer (a fault undoes them, a 4xx keeps them, a caught statement does not undo the rest). The rest of the
// rules: idempotency.test.ts.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { db } from '../../shared/platform/db/knex.js';
import { scopeHash } from '../../shared/platform/idempotency/idempotency-keys.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { appCount, keyed, probe, probeRow, probes, replayed } from '../helpers/idempotency-probes.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('Idempotency-Key: holders and the writes that go with an answer', () => {
  useCleanDatabase();
  const app = useTestApp({ extraRoutes: [probes()] });

  beforeEach(() => {
    probe.answer = 'created';
  });

  describe('expiry, and holders that go away', () => {
    it('runs the request anew once the key is 24 hours old', async () => {
      const { site, account } = await signedInClient(app.client);
      const key = randomUUID();
      const first = await site.post('/api/v1/account/apps', { name: 'daily' }, keyed(key));
      const hours = (n: number) => new Date(Date.now() - n * 3_600_000);
      await db()('idempotency_keys')
        .where({ key })
        .update({ created_at: hours(24), expires_at: hours(0.001) });
      const later = await site.post('/api/v1/account/apps', { name: 'daily' }, keyed(key));
      expect(later.status).to.equal(201);
      expect(replayed(later)).to.equal(null);
      expect(later.body.data.id).not.to.equal(first.body.data.id);
      expect(await appCount(account.id)).to.equal(2);
      // The old row was taken over, and the new answer is what a repeat now replays.
      expect(await db()('idempotency_keys').where({ key })).to.have.length(1);
      const repeat = await site.post('/api/v1/account/apps', { name: 'daily' }, keyed(key));
      expect(repeat.body).to.deep.equal(later.body);
    });

    it('frees a key the moment its holder’s transaction ends: a holder that dies leaves it free at once', async () => {
      const { site, account } = await signedInClient(app.client);
      const key = randomUUID();
      const scope = { accountId: account.id, caller: 'session', method: 'POST', path: '/api/v1/account/apps', key };
      // A holder as a request holds its key: a lock of its transaction, on its own connection.
      const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await holder.connect();
      holder.on('error', () => undefined);
      await holder.query('BEGIN');
      await holder.query("SELECT pg_advisory_xact_lock(hashtextextended('idempotency:' || $1, 0))", [scopeHash(scope)]);
      const blocked = await site.post('/api/v1/account/apps', { name: 'held' }, keyed(key));
      expect(blocked.status).to.equal(409);
      expect(blocked.body.error.reason).to.equal('idempotency_in_progress');
      // Its process dies: the server ends the transaction with the connection, and the key is free.
      const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await db().raw('SELECT pg_terminate_backend(?)', [rows[0].pid]);
      await holder.end().catch(() => undefined);
      const taken = await until(async () => {
        const res = await site.post('/api/v1/account/apps', { name: 'held' }, keyed(key));
        return res.status === 409 ? null : res;
      }, 5000);
      expect(taken.status).to.equal(201);
      expect(replayed(taken)).to.equal(null);
      expect(await appCount(account.id)).to.equal(1);
    });

    it('still honours a hold written by an older process (a row in progress) until its lease ends', async () => {
      const { site, account } = await signedInClient(app.client);
      const key = randomUUID();
      await site.post('/api/v1/account/apps', { name: 'held' }, keyed(key));
      await db()('idempotency_keys')
        .where({ key })
        .update({
          state: 'in_progress',
          status: null,
          headers: null,
          body: null,
          locked_at: new Date(Date.now() - 60_000),
        });
      const blocked = await site.post('/api/v1/account/apps', { name: 'held' }, keyed(key));
      expect(blocked.body.error.reason).to.equal('idempotency_in_progress');
      await db()('idempotency_keys')
        .where({ key })
        .update({ locked_at: new Date(Date.now() - 11 * 60_000) });
      const taken = await site.post('/api/v1/account/apps', { name: 'held' }, keyed(key));
      expect(taken.status).to.equal(201);
      expect(replayed(taken)).to.equal(null);
      expect(await appCount(account.id)).to.equal(2);
    });
  });

  describe('the request’s writes go with its answer', () => {
    const written = async (tag: string) => (await db()('rate_limits').where({ key: probeRow(tag) })).length;

    it('undoes what a request wrote when it fails (a fault): the retry runs on a clean slate', async () => {
      const { site } = await signedInClient(app.client);
      probe.answer = 'written_fault';
      probe.tag = randomUUID();
      const failed = await site.post('/api/v1/probe/things', { n: 5 }, keyed(randomUUID()));
      expect(failed.status).to.equal(500);
      expect(await written(probe.tag), 'undone with the key given back').to.equal(0);
      // Without a key, the request is not one transaction: its write stays, as it always did.
      probe.tag = randomUUID();
      expect((await site.post('/api/v1/probe/things', { n: 5 })).status).to.equal(500);
      expect(await written(probe.tag)).to.equal(1);
    });

    it('keeps what a request wrote with a refusal it answers (4xx), and replays the refusal', async () => {
      const { site } = await signedInClient(app.client);
      probe.answer = 'written_refusal';
      probe.tag = randomUUID();
      const key = randomUUID();
      const refused = await site.post('/api/v1/probe/things', { n: 6 }, keyed(key));
      expect(refused.status).to.equal(409);
      expect(await written(probe.tag), 'a refusal counts what it wrote, like an attempt').to.equal(1);
      const again = await site.post('/api/v1/probe/things', { n: 6 }, keyed(key));
      expect(replayed(again)).to.equal('true');
      expect(again.body).to.deep.equal(refused.body);
      expect(await written(probe.tag)).to.equal(1);
    });

    it('lets a statement fail and be caught without undoing the request’s other writes', async () => {
      const { site } = await signedInClient(app.client);
      probe.answer = 'caught_violation';
      probe.tag = randomUUID();
      const res = await site.post('/api/v1/probe/things', { n: 7 }, keyed(randomUUID()));
      expect(res.status, res.text).to.equal(201);
      const rows = await db()('rate_limits').whereIn('key', [probeRow(probe.tag), probeRow(`${probe.tag}:after`)]);
      expect(rows.map((row) => Number(row.points)).sort()).to.deep.equal([1, 3]);
    });
  });
});
