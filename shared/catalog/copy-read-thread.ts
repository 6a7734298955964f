// The worker thread that reads the catalog's copy (copy-read.ts): one connection of its own, the read,
// and the copy posted back part by part, each when the last was taken in, with its typed arrays' buffers
// moved, not copied.
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { createKnex } from '../platform/db/knex.js';
import { readCatalogSnapshot } from './copy-indexes.js';
import { buffersOf, copyParts } from './copy-read.js';

const knex = createKnex((workerData as { connectionString: string }).connectionString, 1);
try {
  const copy = await readCatalogSnapshot(knex);
  // Each part once the web process has taken in the last (it says `next`).
  for (const part of copyParts(copy)) {
    parentPort!.postMessage(part, buffersOf(part.value));
    await once(parentPort!, 'message');
  }
  parentPort!.postMessage({ done: true });
} catch (error) {
  parentPort!.postMessage({ error: `catalog copy: ${(error as Error).message}` });
} finally {
  await knex.destroy();
}
