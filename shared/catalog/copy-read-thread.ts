// The worker thread that reads the catalog's copy (copy-read.ts): one connection of its own, the read,
// and the copy posted back with its typed arrays' buffers moved, not copied.
import { parentPort, workerData } from 'node:worker_threads';
import { createKnex } from '../platform/db/knex.js';
import { readCatalogSnapshot } from './copy-indexes.js';
import { buffersOf } from './copy-read.js';

const knex = createKnex((workerData as { connectionString: string }).connectionString, 1);
try {
  const copy = await readCatalogSnapshot(knex);
  parentPort!.postMessage({ copy }, buffersOf(copy));
} catch (error) {
  parentPort!.postMessage({ error: `catalog copy: ${(error as Error).message}` });
} finally {
  await knex.destroy();
}
