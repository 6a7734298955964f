// A throw-away database for one test run: on the server of DATABASE_URL when it is set, else in an
// embedded PostgreSQL in a temporary folder. Either way it is created empty and dropped at the end.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../shared/platform/db/embedded.js';
import { freePort } from '../../shared/platform/net/ports.js';

export interface TestDatabase {
  url: string;
  /** `embedded` or the host of DATABASE_URL. */
  where: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(serverUrl: string | undefined): Promise<TestDatabase> {
  const name = `jogatina_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  if (serverUrl) {
    const admin = new URL(serverUrl);
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`CREATE DATABASE "${name}"`);
    await client.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      where: admin.host,
      async drop() {
        const dropper = new pg.Client({ connectionString: serverUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'jogatina-test-')), 'pg');
  const server = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false });
  return { url: server.url, where: 'embedded', drop: () => server.stop() };
}
