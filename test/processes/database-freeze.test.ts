// The database frozen under a running web process (issue: nothing held up when a peer hangs): a server
// that accepts connections but answers nothing, which is what SIGSTOP makes of PostgreSQL (and what a
// network dropping packets without a reset looks like). Before, every request waited as long as the
// freeze lasted. With the web's limits (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_ACQUIRE_TIMEOUT_MS), each
// answers 503 `database_unavailable` with Retry-After within them, both on the connections the pool held
// (the process's own watch closes them) and on new ones (the connect and acquire limits); after SIGCONT
// the same process answers as before. A PostgreSQL of this test's own: the suite's is shared.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runningServer, startEmbeddedPostgres, type EmbeddedDatabase } from '../../shared/platform/db/embedded.js';
import { freePort } from '../../shared/platform/net/ports.js';
import { runEntry, type RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';

const ORIGIN = 'http://localhost:3000';
const STATEMENT_TIMEOUT_MS = 2000;
const ACQUIRE_TIMEOUT_MS = 2000;
/** The longest a request may take while the server is frozen: the limits, the process's 1 s grace, slack. */
const BOUND_MS = STATEMENT_TIMEOUT_MS + 1000 + ACQUIRE_TIMEOUT_MS + 2000;

/** The postmaster and its children (every backend, and the server's own processes). */
function serverProcesses(postmaster: number): number[] {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the command's closing parenthesis: state, then the parent's pid.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

describe('the web process when the database freezes', function () {
  this.timeout(180000);
  let folder: string;
  let database: EmbeddedDatabase;
  let web: RunningProcess;
  let base: string;
  let frozen: number[] = [];

  const thaw = () => {
    for (const pid of frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
    frozen = [];
  };

  const env = () => ({
    DATABASE_URL: database.url,
    SECRET: process.env.SECRET!,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
  });

  // Routes that reach the database in different ways: a public search, a read by name, a write and a read
  // behind a key (the key's lookup, a prepared statement, is the first query).
  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/api/v1/games?q=zelda'],
    ['GET', '/api/v1/profiles/somebody'],
    ['POST', '/api/v1/reports', { target_type: 'profile', target_id: 'somebody', reason: 'spam' }],
    ['GET', '/api/v1/me'],
  ];

  /** One call and how long it took; a call still unanswered well past the bound is given up. */
  const call = async ([method, route, body]: [string, string, unknown?]) => {
    const started = Date.now();
    const res = await fetch(`${base}${route}`, {
      method,
      headers: {
        origin: ORIGIN,
        'content-type': 'application/json',
        authorization: `Bearer jgt_live_${'0'.repeat(32)}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(BOUND_MS * 3),
    });
    const text = await res.text();
    return { status: res.status, text, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started };
  };

  before(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'jogatina-freeze-'));
    database = await startEmbeddedPostgres({ dir: path.join(folder, 'pg'), port: await freePort(), persistent: true });
    const release = runEntry('db/migrate.ts', env());
    expect((await release.exited).code, release.lines.join('\n')).to.equal(0);
    web = runEntry('api/server.ts', env());
    const listening = JSON.parse(await web.waitForLine(/"msg":"listening"/, 60000)) as { port: number };
    base = `http://127.0.0.1:${listening.port}`;
  });

  after(async () => {
    thaw();
    await web?.stop();
    await database?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After within its limits while frozen, and as before after the thaw', async () => {
    const usual = (await Promise.all(ROUTES.map(call))).map((answer) => answer.status);
    expect(usual).to.not.include(500).and.not.include(503);

    const postmaster = runningServer(path.join(folder, 'pg'));
    expect(postmaster, 'the embedded server is running').to.not.equal(null);
    frozen = serverProcesses(postmaster!.pid);
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    try {
      // Twice: first on the connections the pool held when the server froze, then on new ones.
      for (const round of ['pooled connections', 'new connections']) {
        const answers = await Promise.all(ROUTES.map(call));
        answers.forEach((answer, i) => {
          const where = `${round}: ${ROUTES[i][0]} ${ROUTES[i][1]}: ${answer.status} in ${answer.ms} ms ${answer.text}`;
          expect(answer.status, where).to.equal(503);
          const error = (JSON.parse(answer.text) as { error: { code: string; reason: string; retry_after: number } })
            .error;
          expect([error.code, error.reason], where).to.deep.equal(['unavailable', 'database_unavailable']);
          expect(answer.retryAfter, where).to.equal(String(error.retry_after));
          expect(answer.ms, where).to.be.below(BOUND_MS);
        });
      }
      expect((await call(['GET', '/health'])).status).to.equal(503);
      expect(web.child.exitCode, 'the web process keeps running').to.equal(null);
    } finally {
      thaw();
    }

    await until(async () => (await call(ROUTES[1])).status !== 503, 30000);
    const after = await Promise.all(ROUTES.map(call));
    expect(after.map((answer) => answer.status)).to.deep.equal(usual);
  });
});
