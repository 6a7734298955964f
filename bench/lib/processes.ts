// Starts a server entry point as its own process and waits until it listens. Where `taskset` exists the
// server is pinned to core 0 and the load generator (this process) to the other cores, so the two do not
// trade places on the CPU and runs are comparable.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  port: number;
  /** The server's own process (taskset execs it, so the pid is the server's). */
  pid: number;
  stop(): Promise<void>;
}

const canPin = spawnSync('taskset', ['-p', String(process.pid)]).status === 0;

/** Pins this (load generating) process away from the servers' core; answers whether pinning is used. */
export function pinLoadGenerator(): boolean {
  if (!canPin) return false;
  return spawnSync('taskset', ['-a', '-p', '-c', '1-63', String(process.pid)]).status === 0;
}

/**
 * The entry must print a JSON line with `"msg":"<ready>"`; the port is the one its `listening` line (or the
 * ready line) names, so a server can be waited for past listening (the web process's catalog copy).
 */
export function startServer(
  entry: string,
  env: Record<string, string>,
  ready = 'listening',
  /** The cores the server may run on (taskset's list; `0-63` for any): the servers' core 0 by default. */
  { cores = '0' }: { cores?: string } = {},
): Promise<ServerProcess> {
  // BENCH_NODE_ARGS: flags for the servers' node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile
  // them under the benchmark's own load (node refuses --cpu-prof in NODE_OPTIONS).
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const nodeArgs = [...extra, '--import', 'tsx', path.join(ROOT, entry)];
  const [command, args] = canPin
    ? ['taskset', ['-c', cores, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    let port = 0;
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      const listening = lines.find((candidate) => candidate.includes('"msg":"listening"'));
      if (listening) port = (JSON.parse(listening) as { port?: number }).port ?? port;
      const line = lines.find((candidate) => candidate.includes(`"msg":"${ready}"`));
      if (!line) return;
      child.stdout!.off('data', onData);
      // Keep draining the output (access logs) so the pipe never blocks the server; an error's log line
      // (pino level 50 and up) is shown, so a 500 in a run says what it was.
      let rest = '';
      child.stdout!.on('data', (more: Buffer) => {
        const lines = (rest + more.toString()).split('\n');
        rest = lines.pop()!;
        for (const logged of lines) if (/"level":(5|6)\d/.test(logged)) console.error(`server: ${logged}`);
      });
      port = (JSON.parse(line) as { port?: number }).port ?? port;
      // A server gone before stop() is what makes the next request's "connection refused": say so.
      let stopping = false;
      child.once('exit', (code, signal) => {
        if (!stopping) console.error(`${entry} exited during the run (code ${code}, signal ${signal})`);
      });
      resolve({
        port,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            stopping = true;
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before listening`)));
  });
}
