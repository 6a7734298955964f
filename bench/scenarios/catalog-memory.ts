// What the catalog's copy costs a web process, at 300,000 and 1,000,000 demo games (BENCH_CATALOG_SIZES):
// the copy's size and its text index's share (measured in this process from the copy's arrays and
// strings), the web process's resident memory once its copy is in and at its peak (two copies are held
// while a new one is read), how long the copy takes to read from the web process's start, the slowest
// GET /health answered while it was read, after a first one that opens the pool's connection (the read
// runs in a worker thread, on the web process's one core as the servers are pinned: target under 50 ms), and how
// soon a game renamed, one added and one removed are found as they now are (the database answers until
// the copy is read again: target within 5 s), and when the copy is current again. Target: at most 600 MB
// of RSS at 300,000 games.
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { loadDemoCatalog } from '../../db/seeds/catalog/load-demo-catalog.js';
import { readCatalogSnapshot, type CatalogSnapshot } from '../../shared/catalog/copy-indexes.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { startApiServer } from '../lib/api-server.js';
import { summariseSamples } from '../lib/samples.js';
import { printCells, type Row } from '../lib/table.js';
import type { Scenario } from '../scenario.js';

const SIZES = (process.env.BENCH_CATALOG_SIZES ?? '300000,1000000').split(',').map(Number);
const RSS_LIMIT_MB = 600;
const STALL_LIMIT_MS = 50;
const FOUND_LIMIT_MS = 5000;
const TOKEN = 'bench-metrics-token';

const status = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Bytes of the typed arrays and strings a value holds (strings of Latin-1 at one byte a character). */
function bytesOf(value: unknown): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  // eslint-disable-next-line no-control-regex
  if (typeof value === 'string') return value.length * (/[^\x00-\xff]/.test(value) ? 2 : 1);
  if (value instanceof Map) return [...value].reduce((sum, [key, item]) => sum + bytesOf(key) + bytesOf(item), 0);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + bytesOf(item), 0);
  if (value !== null && typeof value === 'object')
    return Object.values(value).reduce((sum: number, item) => sum + bytesOf(item), 0);
  return 8;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

interface Measured {
  games: number;
  copyMb: number;
  textMb: number;
  readS: number;
  rssMb: number;
  peakMb: number;
  health: number[];
  seenMs: number;
  currentS: number;
}

async function metric(base: string, name: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const line = (await res.text()).split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  return performance.now() - started;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 20 ms until it holds; ms taken, or Infinity past `limitMs`. */
async function until(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await check()) return performance.now() - started;
    await sleep(20);
  }
  return Infinity;
}

async function measure(knex: Knex, url: string, games: number, copy: CatalogSnapshot): Promise<Measured> {
  const server = await startApiServer(url, { METRICS_TOKEN: TOKEN });
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const started = performance.now();
    // The first request opens the pool's first connection and compiles the route: not a wait for the copy.
    await timed(`${base}/api/v1/health`);
    const health: number[] = [];
    let held = 0;
    while (held !== games && performance.now() - started < 300_000) {
      health.push(await timed(`${base}/api/v1/health`));
      await sleep(10);
      if (health.length % 10 === 0) held = await metric(base, 'jogatina_catalog_copy_games');
    }
    const readS = (performance.now() - started) / 1000;
    const rssMb = status(server.pid, 'VmRSS');
    // A rename, an addition and a removal, each looked for as it now is.
    const stamp = Date.now().toString(36);
    const [{ id: renamed }] = (await knex.raw('SELECT id FROM games ORDER BY popularity DESC NULLS LAST, id LIMIT 1'))
      .rows;
    const [{ id: removed, name: removedName }] = (
      await knex.raw('SELECT id, name FROM games ORDER BY popularity DESC NULLS LAST, id OFFSET 1 LIMIT 1')
    ).rows;
    await knex('games')
      .where({ id: renamed })
      .update({ name: `Quorvex Renamed ${stamp}` });
    await knex('games').insert({
      slug: `quorvex-added-${stamp}`,
      name: `Quorvex Added ${stamp}`,
      type: 0,
      popularity: 1,
    });
    await knex('games').where({ id: removed }).delete();
    const names = async (q: string) =>
      (
        (await (await fetch(`${base}/api/v1/games?q=${encodeURIComponent(q)}`)).json()) as {
          data: Array<{ name: string }>;
        }
      ).data.map((game) => game.name);
    const seenMs = await until(async () => {
      const [renamedNow, added, gone] = await Promise.all([
        names(`quorvex renamed ${stamp}`),
        names(`quorvex added ${stamp}`),
        names(removedName),
      ]);
      return renamedNow.length === 1 && added.length === 1 && !gone.includes(removedName);
    }, 60_000);
    const version = Number((await knex('catalog_state').first('version')).version);
    // Searches bring the copy back: a page read with a newer version starts the read.
    const currentMs = await until(async () => {
      await fetch(`${base}/api/v1/games?q=quorvex`);
      return (await metric(base, 'jogatina_catalog_copy_version')) === version;
    }, 120_000);
    const peakMb = status(server.pid, 'VmHWM');
    return {
      games,
      copyMb: mb(bytesOf(copy)),
      textMb: mb(bytesOf(copy.titles)),
      readS,
      rssMb,
      peakMb,
      health,
      seenMs,
      currentS: (seenMs + currentMs) / 1000,
    };
  } finally {
    await server.stop();
  }
}

export const catalogMemory: Scenario = {
  description: `the catalog's copy at ${SIZES.map((n) => n.toLocaleString('en')).join(' and ')} games: memory, read time, GET /health while it is read`,
  target: 0,
  setup: 'one web process per size; GET /health one at a time every 10 ms from its start until its copy is in',
  async run({ database }) {
    const knex = createKnex(database.url, 4);
    const measured: Measured[] = [];
    try {
      for (const games of SIZES) {
        await loadDemoCatalog(knex, { games });
        await knex.raw('ANALYZE games, catalog_title_words');
        const copy = await readCatalogSnapshot(knex);
        measured.push(await measure(knex, database.url, copy.size, copy));
      }
    } finally {
      await knex.destroy();
    }
    printCells(
      "the catalog's copy in a web process",
      [
        'games',
        'copy MB',
        'text index MB (share)',
        'read s',
        'web RSS MB',
        'peak RSS MB',
        'slowest GET /health ms',
        'change found after ms',
        'copy current after s',
      ],
      measured.map((m) => [
        m.games.toLocaleString('en'),
        m.copyMb.toFixed(0),
        `${m.textMb.toFixed(0)} (${((m.textMb / m.copyMb) * 100).toFixed(0)}%)`,
        m.readS.toFixed(1),
        m.rssMb.toFixed(0),
        m.peakMb.toFixed(0),
        Math.max(...m.health).toFixed(1),
        m.seenMs.toFixed(0),
        m.currentS.toFixed(1),
      ]),
    );
    const problems: string[] = [];
    for (const m of measured) {
      const slowest = Math.max(...m.health);
      if (slowest >= STALL_LIMIT_MS)
        problems.push(`${m.games} games: GET /health took ${slowest.toFixed(0)} ms while the copy was read`);
      if (m.seenMs > FOUND_LIMIT_MS)
        problems.push(`${m.games} games: a change was found after ${m.seenMs.toFixed(0)} ms`);
      if (m.games <= 300_000 && m.rssMb > RSS_LIMIT_MB)
        problems.push(`${m.games} games: ${m.rssMb.toFixed(0)} MB of RSS`);
    }
    const rows: Row[] = measured.map((m) => ({
      name: `${m.games.toLocaleString('en')} games, GET /health during the read`,
      result: summariseSamples(m.health),
    }));
    return { rows, baseline: rows[0].name, subject: rows[rows.length - 1].name, problems };
  },
};
