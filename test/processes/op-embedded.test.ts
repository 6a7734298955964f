// Operator commands without DATABASE_URL use the embedded PostgreSQL of the data folder. When one is
// already running there (`npm start` in another shell, maybe on another EMBEDDED_PG_PORT), they use it, on
// the port its postmaster.pid names, never a second server; when it cannot be reached they say so in one
// line (they used to reach another database on the default port, or crash with a TypeError).
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../shared/platform/db/embedded.js';
import { freePort } from '../../shared/platform/net/ports.js';
import { runOp } from '../helpers/processes.js';

describe('npm run op on the one-machine database', function () {
  this.timeout(180_000);
  let dataDir: string;
  let running: EmbeddedDatabase;
  let runningPort: number;
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jogatina-op-data-'));
    runningPort = await freePort();
    running = await startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), port: runningPort, persistent: false });
  });
  after(() => running.stop());

  it('uses the server running in the data folder, on its own port, whatever EMBEDDED_PG_PORT says', async () => {
    const otherPort = await freePort();
    const result = await runOp(['retention', 'purge'], {
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(otherPort),
    });
    expect(result.code, result.output).to.equal(0);
    // It migrated and worked on the running server's database...
    const client = new pg.Client({ connectionString: running.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM knex_migrations');
      expect(rows[0].n).to.equal(readdirSync('db/migrations').filter((file) => file.endsWith('.ts')).length);
    } finally {
      await client.end();
    }
    // ... and left that server running for its owner.
    const again = new pg.Client({ connectionString: running.url });
    await again.connect();
    await again.end();
  });

  it('says in one line that a server of the folder does not answer, and exits 1', async () => {
    // A folder whose postmaster.pid names a live process (this one) and a port nobody listens on.
    const stale = mkdtempSync(path.join(tmpdir(), 'jogatina-op-stale-'));
    mkdirSync(path.join(stale, 'pg'));
    const deadPort = await freePort();
    writeFileSync(
      path.join(stale, 'pg', 'postmaster.pid'),
      `${process.pid}\n${stale}/pg\n0\n${deadPort}\n\n127.0.0.1\n`,
    );
    const result = await runOp(['check'], { DATABASE_URL: undefined, DATA_DIR: stale });
    expect(result.code).to.equal(1);
    expect(result.output.trim().split('\n')).to.deep.equal([
      `Failed: the embedded PostgreSQL in ${stale}/pg is running (pid ${process.pid}) but does not answer on port ` +
        `${deadPort}: wait for it to finish starting, or stop it (kill ${process.pid}) and start again`,
    ]);
  });

  it('says in one line that no database answers at DATABASE_URL, and exits 1', async () => {
    const deadPort = await freePort();
    const result = await runOp(['check'], { DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/nothing` });
    expect(result.code).to.equal(1);
    expect(result.output.trim().split('\n')).to.deep.equal([
      `Failed: no database answers at 127.0.0.1:${deadPort} (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:${deadPort}; ` +
        'start it, or correct DATABASE_URL',
    ]);
  });
});
