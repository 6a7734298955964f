// Debian's PgBouncer in front of the run's PostgreSQL, for the scale-out test: installed when missing (the
// test machines run as root with apt), run on a free loopback port in session mode, as the operator
// notes in docs/operations.md say the service needs. PgBouncer refuses to run as root, so as root it runs as user
// `postgres` (which the PostgreSQL package, or the embedded server, has made).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../shared/platform/net/ports.js';
import { debianProgramOrReason } from './debian-package.js';
import { until } from './wait.js';

/** PgBouncer's path, installing Debian's package first when there is none; else why not. */
export function pgbouncerOrReason(): Promise<{ path: string } | { reason: string }> {
  // Debian puts it in /usr/sbin, which a non-root PATH often lacks.
  return debianProgramOrReason('pgbouncer', ['pgbouncer', '/usr/sbin/pgbouncer']);
}

export interface Bouncer {
  /** `serverUrl` with PgBouncer's address in place of the server's. */
  url: string;
  close(): Promise<void>;
}

/** A PgBouncer in session mode for the database of `serverUrl`, which clients reach without a password. */
export async function startPgBouncer(binary: string, serverUrl: string): Promise<Bouncer> {
  const server = new URL(serverUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-pgbouncer-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || 5432}`,
    `user=${user}`,
    ...(password ? [`password=${password}`] : []),
  ].join(' ');
  writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = ${target}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      // LISTEN/NOTIFY and named prepared statements need a server connection for the client's session.
      'pool_mode = session',
      'max_client_conn = 1000',
      'default_pool_size = 100',
      // The pool's startup option (jit off) is one PgBouncer 1.18 refuses; the database sets it (migration
      // database_jit_off).
      'ignore_startup_parameters = extra_float_digits, options',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  for (const file of ['userlist.txt', 'pgbouncer.ini']) chmodSync(path.join(dir, file), 0o644);
  const config = path.join(dir, 'pgbouncer.ini');
  const child: ChildProcess =
    process.getuid?.() === 0
      ? spawn('runuser', ['-u', 'postgres', '--', binary, config], { stdio: 'ignore' })
      : spawn(binary, [config], { stdio: 'ignore' });
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  url.password = '';
  await until(async () => {
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      return false;
    }
  }, 20_000);
  return {
    url: url.toString(),
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
