// The web and worker processes as the Procfile runs them: configuration refusals at start, and an
// orderly stop on SIGTERM that finishes the request in flight.
import net from 'node:net';
import { expect } from 'chai';
import { createKnex } from '../../shared/platform/db/knex.js';
import { migrateLatest } from '../../shared/platform/db/migrations.js';
import { processEnv, runEntry, type RunningProcess } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const baseEnv = () => processEnv();

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

function readAll(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
  });
}

describe('the web process', () => {
  let web: RunningProcess | null = null;
  afterEach(async () => {
    await web?.stop();
    web = null;
  });

  it('stops at start with one clear line when a variable is bad', async () => {
    web = runEntry('api/server.ts', { ...baseEnv(), PORT: 'abc', LOG_LEVEL: 'loud' });
    const { code } = await web.exited;
    expect(code).to.equal(1);
    expect(web.lines).to.deep.equal([
      'Configuration error: PORT must be an integer from 0 to 65535, got "abc"; LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ]);
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
    web = runEntry('api/server.ts', baseEnv());
    const listening = JSON.parse(await web.waitForLine(/"msg":"listening"/));
    const port = listening.port as number;

    // A request whose body is still arriving when the signal comes.
    const socket = await connect(port);
    const answer = readAll(socket);
    const body = '{"a":1234567890123}';
    socket.write(
      `POST /api/v1/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.slice(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 100));

    web.child.kill('SIGTERM');
    await web.waitForLine(/"msg":"stopping"/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await connect(port).then(
      (s) => {
        s.destroy();
        return false;
      },
      (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
    );
    expect(refused, 'new connections are refused while stopping').to.equal(true);
    expect(web.child.exitCode, 'still running with a request in flight').to.equal(null);

    socket.write(body.slice(5));
    const response = await answer;
    expect(response).to.match(/^HTTP\/1\.1 404 Not Found/);
    expect(response).to.include('"code":"not_found"');
    const { code } = await web.exited;
    expect(code).to.equal(0);
    expect(web.lines.some((line) => line.includes('"msg":"stopped"'))).to.equal(true);
  });
});

describe('the worker process', () => {
  it('starts on the database, then stops on SIGTERM with exit 0', async () => {
    const worker = runEntry('workers/index.ts', baseEnv());
    try {
      const ready = JSON.parse(await worker.waitForLine(/"msg":"worker ready"/));
      expect(ready.queues).to.include('email.send');
      worker.child.kill('SIGTERM');
      const { code } = await worker.exited;
      expect(code).to.equal(0);
    } finally {
      await worker.stop();
    }
  });
});

describe('a database behind this build', () => {
  let scratch: TestDatabase;
  let newest: string;
  before(async () => {
    scratch = await createTestDatabase(process.env.DATABASE_URL);
    const knex = createKnex(scratch.url, 1);
    await migrateLatest(knex);
    const [row] = await knex('knex_migrations').orderBy('id', 'desc').limit(1);
    newest = row.name;
    await knex('knex_migrations').where({ id: row.id }).delete();
    await knex.destroy();
  });
  after(() => scratch.drop());

  for (const [name, entry] of [
    ['web', 'api/server.ts'],
    ['worker', 'workers/index.ts'],
  ]) {
    it(`stops the ${name} process at start with one line naming npm run migrate`, async () => {
      const running = runEntry(entry, { ...baseEnv(), DATABASE_URL: scratch.url });
      const { code } = await running.exited;
      expect(code).to.equal(1);
      expect(running.lines).to.deep.equal([
        `The ${name} process needs the database migrated: 1 migration(s) pending, from ${newest}; run \`npm run migrate\` first.`,
      ]);
    });
  }
});
