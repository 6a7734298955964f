// `npm start` on a machine with no PostgreSQL configured: it starts the embedded one under the data
// folder, migrates, serves /health, and stops everything on SIGTERM.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../shared/platform/net/ports.js';
import { runEntry } from '../helpers/processes.js';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start (one-machine mode)', function () {
  this.timeout(120000);

  it('serves GET /health 200 on an embedded PostgreSQL, then stops all of it on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jogatina-start-'));
    const [port, pgPort] = [await freePort(), await freePort()];
    const started = Date.now();
    const start = runEntry('scripts/start.ts', {
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    try {
      let health: { status: number; body: unknown } | null = null;
      while (!health && Date.now() - started < 90000) {
        const answer = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
        if (answer?.status === 200) health = { status: answer.status, body: await answer.json() };
        else await new Promise((resolve) => setTimeout(resolve, 250));
        if (start.child.exitCode !== null) throw new Error(`npm start exited:\n${start.lines.join('\n')}`);
      }
      expect(health, 'health within 90 s').to.not.equal(null);
      expect(health!.body).to.deep.equal({ data: { status: 'ok', database: 'ok', queue: 'ok' } });
      expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).to.equal(true);
      expect(existsSync(path.join(dataDir, 'secret'))).to.equal(true);
      await start.waitForLine(/"msg":"worker ready"/, 20000);

      start.child.kill('SIGTERM');
      const { code } = await start.exited;
      expect(code).to.equal(0);
      expect(await portOpen(port)).to.equal(false);
      expect(await portOpen(pgPort), 'embedded PostgreSQL stopped').to.equal(false);
    } finally {
      await start.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
