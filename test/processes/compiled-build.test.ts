// The compiled build as the Procfile runs it (issue 27, item 1): `npm run build` type-checks and compiles
// to dist/ with source maps; the release step, the web process and the worker then run on plain node, with
// no transpiler loaded, and do real work: the reference is served, readiness holds, and an upload is
// encoded by the worker's image thread (a compiled file of its own).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { uploadCapture } from '../helpers/captures.js';
import { appWithKey, buildAccount } from '../helpers/factories.js';
import { TestClient } from '../helpers/http-client.js';
import { catalogGame } from '../helpers/people.js';
import { processEnv, runEntry, type RunningProcess } from '../helpers/processes.js';

const run = promisify(execFile);

describe('the compiled build', function () {
  this.timeout(600_000);
  useCleanDatabase();
  const running: RunningProcess[] = [];
  after(async () => {
    for (const process of running) await process.stop();
  });

  const env = () => processEnv({ NODE_ENV: 'production', MEDIA_DIR: mediaDir, IMAGE_THREADS: '1' });
  let mediaDir: string;

  before(async () => {
    mediaDir = mkdtempSync(path.join(tmpdir(), 'jogatina-build-media-'));
    await run('npm', ['run', 'build'], { timeout: 300_000 });
  });

  it('compiles every entry of the Procfile, with source maps', () => {
    const procfile = readFileSync('Procfile', 'utf8');
    const entries = [...procfile.matchAll(/node (?:--[a-z-]+ )*(dist\/\S+\.js)/g)].map((match) => match[1]);
    expect(entries).to.have.members(['dist/api/server.js', 'dist/workers/index.js', 'dist/db/migrate.js']);
    expect(procfile).not.to.include('tsx');
    for (const entry of entries) {
      expect(existsSync(entry), entry).to.equal(true);
      expect(existsSync(`${entry}.map`), `${entry}.map`).to.equal(true);
    }
    expect(existsSync('dist/workers/images/image-thread.js')).to.equal(true);
    expect(existsSync('dist/db/migrations/20261126001100_passkeys.js')).to.equal(true);
  });

  it('runs the release step, the web process and the worker on plain node, and they work', async () => {
    const release = runEntry('dist/db/migrate.js', env());
    expect((await release.exited).code, release.lines.join('\n')).to.equal(0);

    const web = runEntry('dist/api/server.js', env());
    running.push(web);
    const { port } = JSON.parse(await web.waitForLine(/"msg":"listening"/)) as { port: number };
    const worker = runEntry('dist/workers/index.js', env());
    running.push(worker);
    await worker.waitForLine(/"msg":"worker ready"/);
    for (const child of [web, worker]) {
      const command = readFileSync(`/proc/${child.child.pid}/cmdline`, 'utf8').split('\0');
      expect(command.join(' ')).not.to.include('tsx');
    }

    const client = new TestClient(`http://127.0.0.1:${port}`);
    expect((await client.get('/health/ready')).body.data.status).to.equal('ready');
    const reference = await client.get('/api/v1/openapi.json');
    expect(reference.body.info.version).to.equal(JSON.parse(readFileSync('package.json', 'utf8')).version);

    const { account } = await buildAccount();
    const { token } = await appWithKey(account.id, ['screenshots.write']);
    const game = await catalogGame({ name: 'Compiled Quest', slug: 'compiled-quest' });
    const upload = await uploadCapture(client, { game_id: String(game.id) }, undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(upload.status, upload.text).to.equal(201);
    expect(upload.body.data.image_width).to.equal(320);
  });
});
