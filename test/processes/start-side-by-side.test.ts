// Two clones of the project on one machine, each with its own data folder and no ports set: both `npm start`
// at once, and each one's operator commands reach its own database. The defaults (3000, 54329) may already
// be taken on a machine, by another test run or a developer's own `npm start`: then both clones move, which
// is the behaviour under test all the same. And every start failure is one line saying what to do.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { runningServer } from '../../shared/platform/db/embedded.js';
import { freePort, portFree } from '../../shared/platform/net/ports.js';
import { runEntry, runOp, type RunningProcess } from '../helpers/processes.js';

/** What `npm start` sees in a shell with nothing set: no database, no ports, only its own folder. */
const cloneEnv = (dataDir: string, more: Record<string, string> = {}) => ({
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  DATABASE_URL: undefined,
  PORT: undefined,
  EMBEDDED_PG_PORT: undefined,
  ...more,
});

const [DEFAULT_WEB_PORT, DEFAULT_PG_PORT] = [3000, 54329];

/** Listens on the default ports that are free, as another program would; answers the servers to close. */
async function holdDefaultPorts(): Promise<net.Server[]> {
  const held: net.Server[] = [];
  for (const port of [DEFAULT_WEB_PORT, DEFAULT_PG_PORT]) {
    if (!(await portFree(port))) continue;
    const server = net.createServer().listen(port, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    held.push(server);
  }
  return held;
}

/** A process's environment as it was started (Linux). */
function environOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

async function webPortOf(start: RunningProcess): Promise<number> {
  const line = await start.waitForLine(/"msg":"listening"/, 120_000);
  return (JSON.parse(line) as { port: number }).port;
}

async function accountsIn(dataDir: string): Promise<number> {
  const running = runningServer(path.join(dataDir, 'pg'))!;
  const client = new pg.Client({
    connectionString: `postgres://postgres:jogatina-local@127.0.0.1:${running.port}/jogatina`,
  });
  await client.connect();
  try {
    return (await client.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n as number;
  } finally {
    await client.end();
  }
}

/** Runs a package script's entry as `npm run` would, in the clone's environment. */
async function runScript(entry: string, env: Record<string, string | undefined>, args: string[] = []) {
  const run = runEntry(entry, env, args);
  await new Promise((resolve) => run.child.once('close', resolve));
  return { code: run.child.exitCode, output: run.lines.join('\n') };
}

describe('npm start in two clones side by side', function () {
  this.timeout(300_000);
  const folders: string[] = [];
  const starts: RunningProcess[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-clone-'));
    folders.push(dir);
    return dir;
  };
  after(async () => {
    for (const start of starts) {
      start.child.kill('SIGTERM');
      await start.exited;
    }
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('both answer /health, and op, migrate and the seeds of each reach its own database', async () => {
    // Another program holds the default ports (when nothing does already), so both clones must move.
    const held = await holdDefaultPorts();
    const [a, b] = [folder(), folder()];
    try {
      starts.push(runEntry('scripts/start.ts', cloneEnv(a)), runEntry('scripts/start.ts', cloneEnv(b)));
      const ports = await Promise.all(starts.map(webPortOf));
      expect(ports[0]).to.not.equal(ports[1]);
      for (const [index, port] of ports.entries()) {
        expect(port).to.not.equal(DEFAULT_WEB_PORT);
        const health = await fetch(`http://127.0.0.1:${port}/health`);
        expect(health.status).to.equal(200);
        const start = starts[index];
        await start.waitForLine(new RegExp(`port ${DEFAULT_WEB_PORT} is in use: the API listens on port ${port}`));
        await start.waitForLine(new RegExp(`port ${DEFAULT_PG_PORT} is in use: this folder's PostgreSQL listens`));
        // The web and the worker process both name the site on its moved port (cookies, data events, mail).
        for (const line of [/"msg":"listening"/, /"msg":"worker ready"/]) {
          const { pid } = JSON.parse(await start.waitForLine(line, 60_000)) as { pid: number };
          expect(environOf(pid).PUBLIC_URL, String(line)).to.equal(`http://localhost:${port}`);
        }
      }
    } finally {
      await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
    }
    const pgPorts = [a, b].map((dir) => runningServer(path.join(dir, 'pg'))!.port);
    expect(pgPorts[0]).to.not.equal(pgPorts[1]);
    expect(pgPorts).to.not.include(DEFAULT_PG_PORT);

    const before = [await accountsIn(a), await accountsIn(b)];
    // A seed in clone a adds people to a's database only (the first start made demo_0 to demo_19).
    const seeded = await runScript('scripts/seed-demo.ts', cloneEnv(a), ['--accounts', '25', '--entries', '1']);
    expect(seeded.code, seeded.output).to.equal(0);
    expect(await accountsIn(a)).to.be.greaterThan(before[0]);
    expect(await accountsIn(b)).to.equal(before[1]);
    // Operator commands and the release step in each find that clone's running server.
    for (const dir of [a, b]) {
      const check = await runOp(['check'], cloneEnv(dir));
      expect(check.code, check.output).to.equal(0);
      const migrated = await runScript('db/migrate.ts', cloneEnv(dir));
      expect(migrated.code, migrated.output).to.equal(0);
      expect(migrated.output).to.include('database schema is up to date');
    }
    // Nothing on the machine's default ports was started twice: each folder's server is still its own.
    expect([a, b].map((dir) => runningServer(path.join(dir, 'pg'))!.port)).to.deep.equal(pgPorts);
  });
});

describe('npm start refusing to start, in one line', function () {
  this.timeout(120_000);
  let listener: net.Server;
  let takenPort: number;
  before(async () => {
    takenPort = await freePort();
    listener = net.createServer().listen(takenPort, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
  });
  after(() => new Promise((resolve) => listener.close(resolve)));

  async function failedStart(env: Record<string, string | undefined>) {
    const start = runEntry('scripts/start.ts', env);
    const { code } = await start.exited;
    const said = start.lines.filter((line) => !line.startsWith('{'));
    return { code, said, all: start.lines.join('\n') };
  }

  it('a chosen EMBEDDED_PG_PORT that is taken names the port and the variable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-clone-'));
    try {
      const result = await failedStart(cloneEnv(dir, { EMBEDDED_PG_PORT: String(takenPort), PORT: '0' }));
      expect(result.code).to.equal(1);
      expect(result.said, result.all).to.deep.equal([
        `npm start failed: port ${takenPort} (EMBEDDED_PG_PORT) is in use by another program: set EMBEDDED_PG_PORT ` +
          'to a free port, or leave it unset to use a free one',
      ]);
      expect(result.all).to.not.match(/undefined|triggerUncaughtException/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a chosen PORT that is taken names the port and the variable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-clone-'));
    try {
      const result = await failedStart(cloneEnv(dir, { PORT: String(takenPort) }));
      expect(result.code).to.equal(1);
      expect(result.said).to.deep.equal([
        `npm start failed: port ${takenPort} (PORT) is in use by another program: set PORT to a free port, or leave it unset`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a data folder that cannot be written says so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-clone-'));
    // A file where the folder should be: as root, permissions alone would not stop the write.
    writeFileSync(path.join(dir, 'blocked'), '');
    try {
      const result = await failedStart(cloneEnv(path.join(dir, 'blocked', 'data'), { PORT: '0' }));
      expect(result.code).to.equal(1);
      expect(result.said, result.all).to.have.length(1);
      expect(result.said[0]).to.match(/blocked\/data cannot be created or written \(ENOTDIR\): set DATA_DIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a data folder that cannot be written says so when the secret is set too (no folder made for it)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-clone-'));
    writeFileSync(path.join(dir, 'blocked'), '');
    try {
      const result = await failedStart(
        cloneEnv(path.join(dir, 'blocked', 'data'), {
          PORT: '0',
          SECRET: 'test-secret-0123456789abcdef0123456789abcdef',
        }),
      );
      expect(result.code).to.equal(1);
      expect(result.said, result.all).to.have.length(1);
      expect(result.said[0]).to.match(
        /^npm start failed: the data folder .*blocked\/data cannot be created or written \(ENOTDIR\): set DATA_DIR/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a DATABASE_URL nobody answers at says so', async () => {
    const dead = await freePort();
    const result = await failedStart({
      ...cloneEnv(folder()),
      PORT: '0',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${dead}/nothing`,
    });
    expect(result.code).to.equal(1);
    expect(result.said).to.deep.equal([
      `npm start failed: no database answers at 127.0.0.1:${dead} (DATABASE_URL): connect ECONNREFUSED ` +
        `127.0.0.1:${dead}; start it, or correct DATABASE_URL`,
    ]);
  });

  it('a database migrated by a newer version names the migration it does not know', async () => {
    const server = process.env.DATABASE_URL!;
    const name = `jogatina_newer_${process.pid}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    const newer = new pg.Client({ connectionString: url.toString() });
    await newer.connect();
    await newer.query(
      'CREATE TABLE knex_migrations (id serial PRIMARY KEY, name text, batch int, migration_time timestamptz)',
    );
    await newer.query("INSERT INTO knex_migrations (name, batch) VALUES ('29990101000000_from_a_newer_version.ts', 1)");
    await newer.end();
    try {
      const result = await failedStart({ ...cloneEnv(folder()), PORT: '0', DATABASE_URL: url.toString() });
      expect(result.code).to.equal(1);
      expect(result.said, result.all).to.deep.equal([
        'npm start failed: the database was migrated by a newer version of Jogatina ' +
          '(29990101000000_from_a_newer_version is not in this code): run that version, or point DATABASE_URL ' +
          'or DATA_DIR at a database of this one',
      ]);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });

  const created: string[] = [];
  after(() => created.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  function folder() {
    const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-clone-'));
    created.push(dir);
    return dir;
  }
});
