// The PM2 process file run in the foreground as a container would (`pm2-runtime ecosystem.config.cjs`,
// issue 27, item 2): the release step, two web instances in cluster mode on one port and a worker. /health
// answers; a worker killed with SIGKILL in the middle of a data event's delivery is started again and the
// event is delivered, not lost; and `pm2 reload web` under a small steady load fails no request.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { sweepDataEvents } from '../../shared/arcade/delivery.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { config } from '../../shared/platform/config.js';
import { freePort } from '../../shared/platform/net/ports.js';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, liveRelease } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { processEnv } from '../helpers/processes.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const run = promisify(execFile);
const PM2 = path.resolve('node_modules/.bin/pm2');

interface Pm2Process {
  name: string;
  pid: number;
  status: string;
  restarts: number;
}

describe('the PM2 process file', function () {
  this.timeout(600_000);
  useCleanDatabase();
  const app = useTestApp();
  let runtime: ChildProcess;
  let env: Record<string, string>;
  let base: string;
  let host: FakeHost;
  const output: string[] = [];

  /** What PM2 runs now, as its own CLI lists it. */
  async function processes(): Promise<Pm2Process[]> {
    const { stdout } = await run(PM2, ['jlist'], { env: { ...process.env, ...env } });
    // The list is the output's JSON line; PM2 may print notices around it.
    const list = JSON.parse(stdout.split('\n').find((line) => line.startsWith('['))!) as Array<{
      name: string;
      pid: number;
      pm2_env: { status: string; restart_time: number };
    }>;
    return list.map((p) => ({ name: p.name, pid: p.pid, status: p.pm2_env.status, restarts: p.pm2_env.restart_time }));
  }
  const listening = async (name: string) =>
    (await processes()).filter((p) => p.name === name && p.status === 'online' && p.pid > 0);

  before(async () => {
    await run('npm', ['run', 'build'], { timeout: 300_000 });
    await ensureSigningKeys(db(), config().secret);
    host = await startFakeHost();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = processEnv({
      PORT: String(port),
      PM2_HOME: mkdtempSync(path.join(tmpdir(), 'jogatina-pm2-')),
      WEB_INSTANCES: '2',
      WORKER_INSTANCES: '1',
      SHUTDOWN_TIMEOUT_MS: '5000',
      OUTBOUND_TEST_HOSTS: process.env.OUTBOUND_TEST_HOSTS!,
      OUTBOUND_TEST_CA_FILE: process.env.OUTBOUND_TEST_CA_FILE!,
    });
    runtime = spawn(path.resolve('node_modules/.bin/pm2-runtime'), ['ecosystem.config.cjs'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [runtime.stdout!, runtime.stderr!]) stream.on('data', (chunk) => output.push(String(chunk)));
    // Its own log says when the apps are up; only then is its socket there for the CLI (which would
    // otherwise start a daemon of its own).
    const online = (app: string) =>
      (output.join('').match(new RegExp(`App \\[${app}:\\d+\\] online`, 'g')) ?? []).length;
    await until(async () => online('web') >= 2 && online('worker') >= 1, 120_000).catch((error) => {
      throw new Error(`${error}: ${output.join('').slice(-3000)}`);
    });
    await until(async () => (await listening('web')).length === 2, 60_000);
  });
  after(async () => {
    runtime?.kill('SIGTERM');
    await new Promise((resolve) => (runtime.exitCode === null ? runtime.once('exit', resolve) : resolve(null)));
    await host?.close();
  });

  it('runs the release once, two web instances on one port and a worker; /health answers', async () => {
    // PM2 starts every app at once and the web instances wait only for the migrations, so the release may
    // still be setting up the queues when they listen: it is waited for, and must end without a restart.
    const release = async () => (await processes()).find((p) => p.name === 'release')!;
    await until(async () => (await release()).status === 'stopped', 30_000);
    const ended = await release();
    expect([ended.status, ended.restarts]).to.deep.equal(['stopped', 0]);
    const res = await fetch(`${base}/health/ready`);
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).to.equal('ready');
  });

  it('starts a worker killed with SIGKILL again, and its data event is delivered, not lost', async () => {
    let arrived = 0;
    host.routes['/events'] = () => {
      arrived += 1; // never answered: the worker is killed while it waits
    };
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'pm2-game');
    await liveRelease(dev.app.id, host.origin, { scopes: ['identify'], data_events_url: host.url('/events') });
    const player = await signedInClient(app.client);
    await player.site.post('/api/v1/account/arcade/grants', { app_id: dev.app.id, nickname: 'Kill' });
    await player.site.delete(`/api/v1/account/arcade/grants/${dev.app.id}`);
    await until(async () => arrived > 0, 30_000);

    const [killed] = await listening('worker');
    process.kill(killed.pid, 'SIGKILL');
    const [back] = await until(async () => {
      const now = await listening('worker');
      return now.length === 1 && now[0].pid !== killed.pid ? now : null;
    }, 60_000);
    expect(back.restarts).to.be.greaterThan(killed.restarts);
    const event = await db()('arcade_data_events').where({ app_id: dev.app.id }).first();
    expect(event.status).to.equal('pending');

    // The game server answers again; once the lease has passed, the sweeper queues the event for the new worker.
    host.routes['/events'] = { status: 204 };
    await db()('arcade_data_events')
      .where({ id: event.id })
      .update({ next_attempt_at: new Date(Date.now() - 120_000), leased_until: new Date(Date.now() - 100_000) });
    expect(await sweepDataEvents(db())).to.equal(1);
    await until(
      async () => (await db()('arcade_data_events').where({ id: event.id }).first()).status === 'delivered',
      60_000,
    );
  });

  it('reloads the web instances one at a time under a steady load, failing no request', async () => {
    const before = (await listening('web')).map((p) => p.pid);
    let done = false;
    const failures: string[] = [];
    let answered = 0;
    const client = async () => {
      while (!done) {
        try {
          const res = await fetch(`${base}/health`);
          await res.arrayBuffer();
          if (res.status === 200) answered += 1;
          else failures.push(`status ${res.status}`);
        } catch (error) {
          failures.push(String((error as Error).cause ?? error));
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await run(PM2, ['reload', 'web'], { env: { ...process.env, ...env }, timeout: 120_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    done = true;
    await Promise.all(clients);
    const after = (await listening('web')).map((p) => p.pid);
    expect(after).to.have.length(2);
    expect(
      after.filter((pid) => before.includes(pid)),
      'every instance replaced',
    ).to.deep.equal([]);
    expect(failures).to.deep.equal([]);
    expect(answered).to.be.greaterThan(100);
  });
});
