// The web's limits on the database (shared/platform/db/timeouts.ts) are its own: a pool opened with them
// cuts a statement past the limit (and it reads as the database not answering: 503), a transaction that
// lifts them (the catalog copy's read) runs as long as it needs and leaves the limit as it was, and a pool
// opened without them (workers, the release step's migrations, operator commands) is never cut; nor is a
// streamed read, which lasts as long as its reader. A server
// that does not answer at all: test/processes/database-freeze.test.ts. Also their settings (config.ts).
import { tmpdir } from 'node:os';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../shared/platform/config.js';
import { createKnex, type Knex } from '../../shared/platform/db/knex.js';
import { databaseUnavailable, isDatabaseUnreachable } from '../../shared/platform/db/database-errors.js';
import { liftStatementTimeout } from '../../shared/platform/db/timeouts.js';

describe('the web’s statement limit', function () {
  this.timeout(30000);
  const pools: Knex[] = [];
  const open = (timeouts?: { statementMs: number; acquireMs: number; idleInTransactionMs: number }) => {
    // One connection, so every statement of a test runs on the same one.
    const knex = createKnex(process.env.DATABASE_URL!, 1, timeouts ? { timeouts } : {});
    pools.push(knex);
    return knex;
  };
  after(async () => {
    for (const knex of pools) await knex.destroy();
  });

  const web = () => open({ statementMs: 300, acquireMs: 2000, idleInTransactionMs: 5000 });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  it('cuts a request’s statement past the limit, and that reads as the database not answering', async () => {
    const error = await failure(web().raw('SELECT pg_sleep(1)'));
    expect(error, 'cut').to.not.equal(null);
    expect((error as { code?: string }).code).to.equal('57014');
    expect(isDatabaseUnreachable(error)).to.equal(true);
    expect(databaseUnavailable().status).to.equal(503);
  });

  it('runs a transaction that lifts it for as long as it needs, and limits the next statement again', async () => {
    const knex = web();
    // Longer than the server's limit and than the process's own watch (the limit and 1 s).
    const slept = await knex.transaction(async (trx) => {
      await liftStatementTimeout(trx);
      return (await trx.raw('SELECT pg_sleep(1.5), 1 AS done')).rows[0].done;
    });
    expect(slept).to.equal(1);
    expect((await knex.raw('SHOW statement_timeout')).rows[0].statement_timeout).to.equal('300ms');
    expect(((await failure(knex.raw('SELECT pg_sleep(1)'))) as { code?: string }).code).to.equal('57014');
  });

  it('lets a streamed read (the account export) run past it, and limits the next statement again', async () => {
    const knex = web();
    let rows = 0;
    // A slow reader: the cursor stays open about three times the limit.
    for await (const row of knex.raw('SELECT g FROM generate_series(1, 400) g').stream({ highWaterMark: 10 })) {
      rows += row ? 1 : 0;
      if (rows % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(rows).to.equal(400);
    expect((await knex.raw('SHOW statement_timeout')).rows[0].statement_timeout).to.equal('300ms');
  });

  it('is not set on pools opened without it (workers, migrations, operator commands)', async () => {
    const knex = open();
    expect((await knex.raw('SHOW statement_timeout')).rows[0].statement_timeout).to.equal('0');
    expect((await knex.raw('SELECT pg_sleep(1), 1 AS done')).rows[0].done).to.equal(1);
  });
});

describe('the database limits’ settings', () => {
  const SECRET = 's'.repeat(40);
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig({ SECRET, ...env }, tmpdir());
      return [];
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
  };

  it('has defaults that answer within seconds, and reads each variable', () => {
    expect(loadConfig({ SECRET }, tmpdir()).databaseTimeouts).to.deep.equal({
      statementMs: 5000,
      acquireMs: 5000,
      idleInTransactionMs: 30000,
    });
    const set = loadConfig(
      {
        SECRET,
        DATABASE_STATEMENT_TIMEOUT_MS: '0',
        DATABASE_ACQUIRE_TIMEOUT_MS: '1500',
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '60000',
      },
      tmpdir(),
    );
    expect(set.databaseTimeouts).to.deep.equal({ statementMs: 0, acquireMs: 1500, idleInTransactionMs: 60000 });
    for (const [name, value] of [
      ['DATABASE_STATEMENT_TIMEOUT_MS', '-1'],
      ['DATABASE_ACQUIRE_TIMEOUT_MS', '0'],
      ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 'soon'],
    ]) {
      expect(problemsOf({ [name]: value }).join(), name).to.include(name);
    }
  });

  it('takes the test-only pause at commit outside production only', () => {
    expect(loadConfig({ SECRET }, tmpdir()).testPauseAtCommit).to.equal(null);
    expect(loadConfig({ SECRET, TEST_PAUSE_AT_COMMIT: 'after' }, tmpdir()).testPauseAtCommit).to.equal('after');
    expect(problemsOf({ TEST_PAUSE_AT_COMMIT: 'never' }).join()).to.include('TEST_PAUSE_AT_COMMIT');
    expect(problemsOf({ NODE_ENV: 'production', TEST_PAUSE_AT_COMMIT: 'before' }).join()).to.include(
      'TEST_PAUSE_AT_COMMIT is for tests',
    );
  });
});
