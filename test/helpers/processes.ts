// Runs one of the service's entry points as a real child process and watches what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line (stdout or stderr) matching, or rejects after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** What a web or worker process of a test runs with: the run's database and secret, on loopback, port 0. */
export function processEnv(more: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: process.env.DATABASE_URL!,
    SECRET: process.env.SECRET!,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    ...more,
  };
}

export function runEntry(entry: string, env: Record<string, string | undefined>, args: string[] = []): RunningProcess {
  // A compiled entry (dist/...js) runs as production runs it, on plain node; the rest through tsx.
  const loader = entry.endsWith('.js') ? ['--enable-source-maps'] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...loader, path.join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const watchers: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      lines.push(line);
      for (const watcher of watchers.filter((w) => w.pattern.test(line))) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve(line);
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    exited,
    waitForLine(pattern, timeoutMs = 30000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no line matching ${pattern} in ${timeoutMs} ms:\n${lines.join('\n')}`)),
          timeoutMs,
        );
        watchers.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`exited before a line matching ${pattern}:\n${lines.join('\n')}`));
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Runs `npm run op -- <args>` as the operator would, on the test database; answers its exit code and output. */
export async function runOp(args: string[], env: Record<string, string | undefined> = {}) {
  const run = runEntry(
    'scripts/op.ts',
    { DATABASE_URL: process.env.DATABASE_URL, SECRET: process.env.SECRET, ...env },
    args,
  );
  await new Promise((resolve) => run.child.once('close', resolve));
  return { code: run.child.exitCode, output: run.lines.join('\n') };
}
