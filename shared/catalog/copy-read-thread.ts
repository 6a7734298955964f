// The worker thread that reads the catalog's copy (copy-read.ts): one connection of its own, the read,
// and the copy posted back part by part with its typed arrays' buffers moved, not copied.
import { parentPort, workerData } from 'node:worker_threads';
import { createKnex } from '../platform/db/knex.js';
import { readCatalogSnapshot } from './copy-indexes.js';
import { buffersOf, copyParts } from './copy-read.js';

const knex = createKnex((workerData as { connectionString: string }).connectionString, 1);
try {
  const copy = await readCatalogSnapshot(knex);
  for (const part of copyParts(copy)) parentPort!.postMessage(part, buffersOf(part.value));
  parentPort!.postMessage({ done: true });
} catch (error) {
  parentPort!.postMessage({ error: `catalog copy: ${(error as Error).message}` });
} finally {
  await knex.destroy();
}
