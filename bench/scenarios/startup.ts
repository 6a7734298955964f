// Startup of the web and worker processes (issue 27, item 1): each started 7 times, interleaved, as the
// Procfile used to run it (TypeScript through tsx, transpiled at run time) and as it runs it now (the
// compiled build on plain node), timed from spawn to its ready line, with its resident memory once ready.
// The build is made first (`npm run build`). Target: the compiled processes start at least as fast.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { summariseSamples } from '../lib/samples.js';
import type { Row } from '../lib/table.js';
import type { Scenario } from '../scenario.js';

const STARTS = 7;
const VARIANTS = [
  { name: 'web, tsx', args: ['--import', 'tsx', 'api/server.ts'], ready: 'listening' },
  { name: 'web, compiled', args: ['--enable-source-maps', 'dist/api/server.js'], ready: 'listening' },
  { name: 'worker, tsx', args: ['--import', 'tsx', 'workers/index.ts'], ready: 'worker ready' },
  { name: 'worker, compiled', args: ['--enable-source-maps', 'dist/workers/index.js'], ready: 'worker ready' },
];

const residentMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** One start: ms until the ready line, and the RSS a second later (what the process holds at rest). */
function startOnce(args: string[], ready: string, env: Record<string, string>): Promise<{ ms: number; mb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    let isReady = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (isReady) return;
      seen += chunk.toString();
      if (!seen.includes(`"msg":"${ready}"`)) return;
      const ms = performance.now() - started;
      isReady = true;
      setTimeout(() => {
        const mb = residentMb(child.pid!);
        child.once('exit', () => resolve({ ms, mb }));
        child.kill('SIGTERM');
      }, 1000);
    });
    child.once('exit', (code) => {
      if (!isReady) reject(new Error(`${args.join(' ')} exited with ${code} before it was ready`));
    });
  });
}

export const startup: Scenario = {
  description: `web and worker started ${STARTS} times each, through tsx and compiled: ms to ready`,
  target: 1,
  setup: `${STARTS} interleaved starts per variant; memory is the RSS one second after ready`,
  async run({ database }) {
    execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
    const env = {
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      SECRET: 'bench-secret-0123456789abcdef0123456789',
      IMAGE_THREADS: '1',
      MEDIA_DIR: mkdtempSync(path.join(tmpdir(), 'jogatina-bench-startup-')),
    };
    const samples = new Map(VARIANTS.map((variant) => [variant.name, { ms: [] as number[], mb: [] as number[] }]));
    for (let round = 0; round < STARTS; round += 1) {
      for (const variant of VARIANTS) {
        const { ms, mb } = await startOnce(variant.args, variant.ready, env);
        samples.get(variant.name)!.ms.push(ms);
        samples.get(variant.name)!.mb.push(mb);
      }
    }
    const rows: Row[] = VARIANTS.map((variant) => ({
      name: variant.name,
      result: summariseSamples(samples.get(variant.name)!.ms),
    }));
    for (const variant of VARIANTS) {
      const mb = [...samples.get(variant.name)!.mb].sort((a, b) => a - b);
      console.log(`${variant.name}: median RSS ${mb[Math.floor(mb.length / 2)].toFixed(0)} MB once ready`);
    }
    return { rows, baseline: 'web, tsx', subject: 'web, compiled' };
  },
};
