// The database stopped, and crashed, under a running web process. A PostgreSQL of this test's own (the
// suite's database is shared by every other test): stopped, every route but /health answers 503
// `unavailable` with Retry-After, not 500; started again, the same process answers as before. Killed
// hard (a backend lost, so the server runs crash recovery), the attempt counters are still there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../shared/platform/db/embedded.js';
import { freePort } from '../../shared/platform/net/ports.js';
import { runEntry, type RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';

const ORIGIN = 'http://localhost:3000';

describe('the web process when the database goes away', function () {
  this.timeout(180000);
  let folder: string;
  let port: number;
  let database: EmbeddedDatabase;
  let web: RunningProcess;
  let base: string;

  const start = () => startEmbeddedPostgres({ dir: path.join(folder, 'pg'), port, persistent: true });
  const env = () => ({
    DATABASE_URL: database.url,
    SECRET: process.env.SECRET!,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
  });
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${base}${route}`, {
      method,
      // A key of the right shape that nobody holds: looking it up needs the database.
      headers: {
        origin: ORIGIN,
        'content-type': 'application/json',
        authorization: `Bearer jgt_live_${'0'.repeat(32)}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const signIn = (email: string) =>
    fetch(`${base}/api/auth/sign-in`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'wrong password 1' }),
    });

  before(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'jogatina-outage-'));
    port = await freePort();
    database = await start();
    const release = runEntry('db/migrate.ts', env());
    expect((await release.exited).code, release.lines.join('\n')).to.equal(0);
    web = runEntry('api/server.ts', env());
    const listening = JSON.parse(await web.waitForLine(/"msg":"listening"/));
    base = `http://127.0.0.1:${listening.port}`;
  });

  after(async () => {
    await web?.stop();
    await database?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  // Routes that reach the database in different ways: a public search, a read by name, a write and a read
  // behind a key (the key's lookup is the first query).
  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/api/v1/games?q=zelda'],
    ['GET', '/api/v1/profiles/somebody'],
    ['POST', '/api/v1/reports', { target_type: 'profile', target_id: 'somebody', reason: 'spam' }],
    ['GET', '/api/v1/me'],
  ];

  it('answers 503 unavailable with Retry-After while it is stopped, and as before once it is back', async () => {
    const before = await Promise.all(ROUTES.map(([method, route, body]) => call(method, route, body)));
    const usual = before.map((res) => res.status);
    expect(usual).to.not.include(500).and.not.include(503);

    await database.stop();
    for (const [method, route, body] of ROUTES) {
      const res = await call(method, route, body);
      const answer = (await res.json()) as { error: { code: string; reason: string; retry_after: number } };
      expect([res.status, answer.error.code, answer.error.reason], `${method} ${route}`).to.deep.equal([
        503,
        'unavailable',
        'database_unavailable',
      ]);
      expect(res.headers.get('retry-after'), `${method} ${route}`).to.equal(String(answer.error.retry_after));
    }
    expect((await call('GET', '/health')).status).to.equal(503);
    expect(web.child.exitCode, 'the web process keeps running').to.equal(null);

    database = await start();
    await until(async () => (await call('GET', '/api/v1/profiles/somebody')).status !== 503, 30000);
    const after = await Promise.all(ROUTES.map(([method, route, body]) => call(method, route, body)));
    expect(after.map((res) => res.status)).to.deep.equal(usual);
  });

  it('keeps a sign-in lockout through a crash of the database server', async () => {
    const email = 'locked@example.com';
    for (let i = 0; i < 5; i += 1) expect((await signIn(email)).status).to.equal(401);
    expect((await signIn(email)).status).to.equal(429);

    // SIGKILL of one backend makes the postmaster reset every process and replay the WAL, as after a crash:
    // an UNLOGGED table comes back empty.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    client.on('error', () => undefined);
    process.kill(rows[0].pid, 'SIGKILL');
    // The postmaster notices at once; a connection is refused while it recovers.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const counted = await until(async () => {
      const probe = new pg.Client({ connectionString: database.url });
      try {
        await probe.connect();
        const result = await probe.query(
          "SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE 'attempt:signin:%'",
        );
        return { n: result.rows[0].n as number };
      } catch {
        return null;
      } finally {
        await probe.end().catch(() => undefined);
      }
    }, 30000);
    expect(counted.n, 'sign-in counters after crash recovery').to.be.greaterThan(0);
    await until(async () => (await signIn(email)).status !== 503, 30000);
    expect((await signIn(email)).status).to.equal(429);
  });
});
