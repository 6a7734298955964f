// The job machinery against real pg-boss on the run's database: sending inside a transaction, the
// worker consuming what was committed, and the request/reply wait.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { OutboxEmail } from '../../shared/platform/email/outbox-email.js';
import { queueEmail } from '../../shared/platform/email/outbox.js';
import { createMailTransport } from '../../shared/platform/email/transport.js';
import { boss, ensureQueues, type QueueOptions } from '../../shared/platform/jobs/boss.js';
import { JobFailedError, JobReplies, JobTimeoutError } from '../../shared/platform/jobs/request-reply.js';
import { sendInTransaction } from '../../shared/platform/jobs/send.js';
import { Signals } from '../../shared/platform/jobs/signals.js';
import { isApiError } from '../../shared/platform/errors.js';
import { createLogger } from '../../shared/platform/logger.js';
import { QUEUES } from '../../shared/platform/jobs/queue.js';
import { jobHandlers } from '../../workers/jobs/index.js';
import type { JobHandler } from '../../workers/job-context.js';
import { MissingHandlerError, missingHandlers, subscribeAll } from '../../workers/worker.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { testWorkerServices } from '../helpers/worker-services.js';
import { until } from '../helpers/wait.js';

const log = createLogger(process.env.TEST_LOG ?? 'silent');

async function jobsIn(queue: string): Promise<Array<{ id: string; state: string }>> {
  const { rows } = await db().raw('SELECT id, state FROM pgboss.job WHERE name = ?', [queue]);
  return rows;
}

describe('the job queue', () => {
  useCleanDatabase();
  const signals = () => new Signals(process.env.DATABASE_URL!, log);

  describe('sending inside a transaction', () => {
    it('leaves no job and no outbox row when the transaction rolls back', async () => {
      const failure = new Error('the request failed after queueing');
      let sentId: string | undefined;
      try {
        await db().transaction(async (trx) => {
          const email = await queueEmail(trx, { to: 'a@example.test', subject: 'Hi', text: 'x', kind: 'test' });
          sentId = email.id;
          // Inside the transaction the job is visible on its own connection.
          const { rows } = await trx.raw("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'email.send'");
          expect(rows[0].n).to.equal(1);
          throw failure;
        });
        expect.fail('the transaction should have thrown');
      } catch (error) {
        expect(error).to.equal(failure);
      }
      expect(sentId).to.be.a('string');
      expect(await jobsIn('email.send')).to.have.length(0);
      expect(await OutboxEmail.query(db()).findById(sentId!)).to.equal(undefined);
    });

    it('keeps the job when the transaction commits', async () => {
      const id = await db().transaction((trx) => sendInTransaction(trx, 'email.send', { email_id: 'nothing' }));
      const jobs = await jobsIn('email.send');
      expect(jobs.map((job) => job.id)).to.include(id);
    });

    it('refuses the pool where a transaction is needed', async () => {
      try {
        await sendInTransaction(db() as never, 'email.send', { email_id: 'x' });
        expect.fail('should refuse');
      } catch (error) {
        expect((error as Error).message).to.match(/needs a knex transaction/);
      }
    });
  });

  describe('the worker', () => {
    it('finds each queue’s handler in the job file named after the queue', async () => {
      for (const queue of Object.keys(QUEUES) as Array<keyof typeof QUEUES>) {
        const file = new URL(`../../workers/jobs/${queue}.ts`, import.meta.url);
        expect(existsSync(file), `workers/jobs/${queue}.ts`).to.equal(true);
        // Compared by name: the loader may hand this import its own instance of the module.
        const exported = Object.values(await import(file.href)).map((value) => (value as { name?: string }).name);
        expect(exported, `workers/jobs/${queue}.ts exports the handler of ${queue}`).to.include(
          jobHandlers[queue].name,
        );
      }
    });

    it('refuses to start while a declared queue has no handler', async () => {
      expect(missingHandlers(QUEUES, jobHandlers)).to.deep.equal([]);
      expect(missingHandlers({ 'a.b': {}, 'c.d': {} }, { 'a.b': async () => 1 })).to.deep.equal(['c.d']);
      const listener = signals();
      try {
        await subscribeAll({
          boss: boss(),
          signals: listener,
          services: testWorkerServices({ log }),
          queues: {
            ...QUEUES,
            'never.handled': { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 5 },
          },
          handlers: jobHandlers as never,
        });
        expect.fail('should refuse to start');
      } catch (error) {
        expect(error).to.be.instanceOf(MissingHandlerError);
        expect((error as MissingHandlerError).queues).to.deep.equal(['never.handled']);
      } finally {
        await listener.close();
      }
    });

    it('processes a job sent in a committed transaction: the email is written and marked sent', async () => {
      const mailDir = mkdtempSync(path.join(tmpdir(), 'jogatina-mail-'));
      const mail = createMailTransport({ smtpUrl: null, mailDir, from: 'Jogatina <no-reply@jogatina.test>' });
      const listener = signals();
      const running = await subscribeAll({
        boss: boss(),
        signals: listener,
        services: testWorkerServices({ log, mail }),
        queues: QUEUES,
        handlers: jobHandlers as never,
      });
      try {
        const email = await db().transaction((trx) =>
          queueEmail(trx, { to: 'player@example.test', subject: 'Welcome', text: 'Hello there', kind: 'test' }),
        );
        const sent = await until(async () => {
          const row = await OutboxEmail.query(db()).findById(email.id);
          return row?.sent_at ? row : null;
        });
        expect(sent.attempts).to.equal(1);
        const file = path.join(mailDir, `${email.id}.eml`);
        expect(existsSync(file)).to.equal(true);
        const eml = readFileSync(file, 'utf8');
        expect(eml).to.include('To: player@example.test');
        expect(eml).to.include('Subject: Welcome');
        expect(eml).to.include('Hello there');
        const { rows } = await db().raw(
          "SELECT state FROM pgboss.job WHERE name = 'email.send' AND data->>'email_id' = ?",
          [email.id],
        );
        expect(rows).to.have.length(1);
        await until(async () => {
          const job = await db().raw("SELECT state FROM pgboss.job WHERE data->>'email_id' = ?", [email.id]);
          return job.rows[0]?.state === 'completed';
        });
      } finally {
        await running.stop();
        await listener.close();
      }
    });
  });

  describe('a queue with slots', () => {
    const SLOTS = 'test.slots';
    const settings: QueueOptions = {
      retryLimit: 1,
      retryDelay: 0,
      retryBackoff: false,
      expireInSeconds: 30,
      slots: 4,
      pollingIntervalSeconds: 0.5,
    };
    /** Jobs that wait until released; each answers its own name. */
    const holding = new Map<string, () => void>();
    const handlers: Record<string, JobHandler<never>> = {
      [SLOTS]: (async ({ name, hold }: { name: string; hold: boolean }) => {
        if (hold) await new Promise<void>((resolve) => holding.set(name, resolve));
        return { name };
      }) as JobHandler<never>,
    };
    const stateOf = async (name: string) =>
      (await db().raw("SELECT state, output FROM pgboss.job WHERE name = ? AND data->>'name' = ?", [SLOTS, name]))
        .rows[0] as { state: string; output: unknown } | undefined;
    const send = (name: string, hold = false) =>
      db().transaction((trx) => sendInTransaction(trx, SLOTS, { name, hold }));

    before(() => ensureQueues(boss(), { [SLOTS]: settings }));
    /** A worker of the slot queue alone, with its own listener. */
    const startSlots = async () => {
      const listener = signals();
      const running = await subscribeAll({
        boss: boss(),
        signals: listener,
        services: testWorkerServices({ log }),
        queues: { [SLOTS]: settings },
        handlers,
      });
      return { listener, running };
    };

    it('completes each job as it ends and refills its slot, while a job fetched with it still runs', async () => {
      const { listener, running } = await startSlots();
      try {
        expect(running.workerIds.get(SLOTS)).to.equal(undefined);
        // Fetched together: the held job and three quick ones fill the four slots.
        await db().transaction(async (trx) => {
          await sendInTransaction(trx, SLOTS, { name: 'held', hold: true });
          for (const name of ['a', 'b', 'c']) await sendInTransaction(trx, SLOTS, { name, hold: false });
        });
        const completed = async (names: string[]) =>
          (await Promise.all(names.map(stateOf))).every((job) => job?.state === 'completed');
        await until(() => completed(['a', 'b', 'c']));
        for (const name of ['a', 'b', 'c']) expect(await stateOf(name)).to.deep.include({ output: { name } });
        expect((await stateOf('held'))?.state).to.equal('active');
        // The quick ones' slots are free again: later jobs run while the held one still holds its own.
        for (const name of ['d', 'e', 'f']) await send(name);
        await until(() => completed(['d', 'e', 'f']));
        expect((await stateOf('held'))?.state).to.equal('active');
        holding.get('held')!();
        await until(async () => (await stateOf('held'))?.state === 'completed');
      } finally {
        await running.stop(1000);
        await listener.close();
      }
    });

    it('on stop, waits for the jobs in flight, then fails those still running so that they are retried', async () => {
      const { listener, running } = await startSlots();
      await send('stuck', true);
      await until(async () => holding.has('stuck'));
      const started = Date.now();
      await running.stop(300);
      await listener.close();
      expect(Date.now() - started).to.be.within(250, 2000);
      // Failed with a retry left: back to the queue for the next worker, not lost.
      expect((await stateOf('stuck'))?.state).to.equal('retry');
      holding.get('stuck')!();
    });
  });

  describe('request/reply', () => {
    const ECHO = 'test.echo';
    const SLOW = 'test.slow';
    const FAILS = 'test.fails';
    const BIG = 'test.big';
    const queues: Record<string, QueueOptions> = {
      [ECHO]: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 30, reply: true },
      [SLOW]: {
        retryLimit: 0,
        retryDelay: 1,
        retryBackoff: false,
        expireInSeconds: 30,
        reply: true,
        pollingIntervalSeconds: 0.5,
      },
      [FAILS]: { retryLimit: 1, retryDelay: 0, retryBackoff: false, expireInSeconds: 30, reply: true },
      [BIG]: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 30, reply: true },
    };
    let attemptsOfFailing = 0;
    const handlers: Record<string, JobHandler<never>> = {
      [ECHO]: (async (payload: { n: number }) => ({ doubled: payload.n * 2 })) as JobHandler<never>,
      [SLOW]: (async () =>
        new Promise((resolve) => setTimeout(() => resolve({ late: true }), 1500))) as JobHandler<never>,
      [FAILS]: (async () => {
        attemptsOfFailing += 1;
        throw new Error(`attempt ${attemptsOfFailing} broke`);
      }) as JobHandler<never>,
      [BIG]: (async () => ({ blob: 'y'.repeat(20000) })) as JobHandler<never>,
    };
    let workerSignals: Signals;
    let senderSignals: Signals;
    let replies: JobReplies;
    let workerIds: string[] = [];

    before(async () => {
      await ensureQueues(boss(), queues);
      workerSignals = signals();
      senderSignals = signals();
      const running = await subscribeAll({
        boss: boss(),
        signals: workerSignals,
        services: testWorkerServices({ log }),
        queues,
        handlers,
      });
      workerIds = [...running.workerIds.values()].flat();
      replies = new JobReplies(senderSignals, db(), log);
    });

    after(async () => {
      for (const id of workerIds) await boss().offWork({ id });
      await workerSignals.close();
      await senderSignals.close();
    });

    it('returns the worker result', async () => {
      const result = await replies.request<{ doubled: number }>(ECHO, { n: 21 }, { timeoutMs: 5000 });
      expect(result).to.deep.equal({ doubled: 42 });
      expect(replies.pending).to.equal(0);
    });

    it('returns a result too large for a notification by reading it back', async () => {
      const result = await replies.request<{ blob: string }>(BIG, {}, { timeoutMs: 5000 });
      expect(result.blob).to.have.length(20000);
    });

    it('reports the final failure after the retries', async () => {
      attemptsOfFailing = 0;
      try {
        await replies.request(FAILS, {}, { timeoutMs: 8000 });
        expect.fail('should fail');
      } catch (error) {
        expect(error).to.be.instanceOf(JobFailedError);
        expect((error as JobFailedError).detail).to.equal('attempt 2 broke');
      }
      expect(attemptsOfFailing).to.equal(2);
    });

    it('times out cleanly: the caller gets a timeout, no waiter is left, the job is cancelled', async () => {
      // Stop the slow queue's worker so the job cannot start before the deadline.
      const slowIds = workerIds.filter((_, index) => Object.keys(queues)[index] === SLOW);
      for (const id of slowIds) await boss().offWork({ id });
      try {
        await replies.request(SLOW, {}, { timeoutMs: 300 });
        expect.fail('should time out');
      } catch (error) {
        expect(error).to.be.instanceOf(JobTimeoutError);
        expect((error as JobTimeoutError).waitedMs).to.equal(300);
      }
      expect(replies.pending).to.equal(0);
      const jobs = await until(async () => {
        const list = await jobsIn(SLOW);
        return list.length === 1 && list[0].state === 'cancelled' ? list : null;
      });
      expect(jobs[0].state).to.equal('cancelled');
    });

    it('answers 429 busy when the queue already holds as many waiting jobs as allowed', async () => {
      const slowIds = workerIds.filter((_, index) => Object.keys(queues)[index] === SLOW);
      for (const id of slowIds)
        await boss()
          .offWork({ id })
          .catch(() => undefined);
      await boss().send(SLOW, {});
      await boss().send(SLOW, {});
      try {
        await replies.request(SLOW, {}, { timeoutMs: 1000, busyAt: 2 });
        expect.fail('should be busy');
      } catch (error) {
        expect(isApiError(error)).to.equal(true);
        expect((error as { body(): unknown }).body()).to.deep.include({
          error: {
            code: 'rate_limited',
            message: 'Processing is full right now; try again shortly.',
            reason: 'busy',
            retry_after: 5,
          },
        });
      }
    });
  });
});
