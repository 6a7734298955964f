// Reads the catalog's copy in a worker thread (copy-read-thread.ts): the read's parsing and indexing take
// a second or more of a processor at 300,000 games, which on the web process's own thread would hold
// every request waiting (a browse waited 0.82 s while a copy was read). The thread opens its own
// connection, builds the copy and hands it over in parts (copyParts), every typed array moved rather than
// copied, each part once the last is taken in; the web process's thread takes each part in as a task of
// its own, between requests.
import { readFileSync } from 'node:fs';
import path, { extname } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import { readCatalogSnapshot, type CatalogSnapshot } from './copy-indexes.js';

/** The connection string a pool was made with (createKnex), or null when it has none. */
function connectionStringOf(knex: Knex): string | null {
  const connection = (knex.client as { config?: { connection?: unknown } }).config?.connection;
  if (typeof connection === 'string') return connection;
  const string = (connection as { connectionString?: unknown } | undefined)?.connectionString;
  return typeof string === 'string' ? string : null;
}

// The thread's module, beside this one: .ts when run through tsx, .js once built. A thread does not load
// the process's `--import tsx` on Node 20, so a TypeScript thread registers tsx itself before it loads the
// module, and is given no flags of the process (a Node that did load them would register tsx twice).
// tsx's ESM API is found from its package.json's exports: import.meta.resolve does not exist where tsx
// compiles a module for require (mocha loads its root hooks that way), and the API's require build does
// not register from a thread's entry.
const EXTENSION = extname(fileURLToPath(import.meta.url));
const THREAD = new URL(`./copy-read-thread${EXTENSION}`, import.meta.url);

interface TsxManifest {
  exports: Record<string, { import: { default: string } }>;
}

/** The thread's entry: its module, or for TypeScript a module registering tsx and then importing it. */
function threadEntry(): URL {
  if (EXTENSION !== '.ts') return THREAD;
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as TsxManifest).exports['./esm/api'].import.default;
  const api = pathToFileURL(path.join(path.dirname(manifest), exported)).href;
  const code = `const api = await import(${JSON.stringify(api)});
    api.register();
    await import(${JSON.stringify(THREAD.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Reads the copy off the process's thread; a pool with no connection string reads it on this thread. */
export function readCatalogSnapshotOffThread(knex: Knex): Promise<CatalogSnapshot> {
  const connectionString = connectionStringOf(knex);
  if (connectionString === null) return readCatalogSnapshot(knex);
  return new Promise((resolve, reject) => {
    const worker = new Worker(threadEntry(), {
      workerData: { connectionString },
      ...(EXTENSION === '.ts' ? { execArgv: [] } : {}),
    });
    const copy: Record<string, unknown> = {};
    worker.on('message', (message: Part | { done: true } | { error: string }) => {
      if ('error' in message) reject(new Error(message.error));
      else if ('done' in message) resolve(copy as unknown as CatalogSnapshot);
      else {
        const [last, ...within] = [...message.path].reverse();
        let into = copy;
        for (const key of within.reverse()) into = (into[key] ??= {}) as Record<string, unknown>;
        into[last] = message.value;
        // The next part once the requests waiting have had their turn: parts sent all at once are taken
        // in back to back (a port drains its queue in one go), which held a process on one core 128 ms.
        setImmediate(() => worker.postMessage('next'));
      }
    });
    worker.once('error', reject);
    // After its message the thread ends, and a settled promise ignores this.
    worker.once('exit', (code) => reject(new Error(`catalog copy: the reading thread ended (exit code ${code})`)));
  });
}

/** A part of the copy and where it goes in it. */
export interface Part {
  path: string[];
  value: unknown;
}

/**
 * The parts a copy is handed over in: each list column, each of the title index's arrays and strings,
 * each index and each column on its own. Taken in whole, a copy of 1,000,000 games held the receiving
 * thread for 95 ms (its names and id lists, 30 to 40 ms each); part by part, no task is longer than its
 * largest part.
 */
export function copyParts(copy: CatalogSnapshot): Part[] {
  const { lists, languageLists, titles, index, ...columns } = copy;
  const within = (name: string, record: object) =>
    Object.entries(record).map(([key, value]) => ({ path: [name, key], value }));
  return [
    ...within('lists', lists),
    ...within('languageLists', languageLists),
    ...within('titles', titles),
    ...within('index', index),
    ...Object.entries(columns).map(([key, value]) => ({ path: [key], value })),
  ];
}

/** The buffers of every typed array a value holds (in objects, arrays and maps), each once. */
export function buffersOf(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) found.add(value.buffer as ArrayBuffer);
  else if (value instanceof Map) for (const item of value.values()) buffersOf(item, found);
  else if (Array.isArray(value)) for (const item of value) buffersOf(item, found);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) buffersOf(item, found);
  return [...found];
}
