// Runs the real image.process handler in this process for a describe block, as the worker process would:
// pg-boss delivers the job, an image thread decodes, screens and encodes, and the answer goes back by
// NOTIFY to the route that waits. The API app must share `media` with it (staging is read from there).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { boss } from '../../shared/platform/jobs/boss.js';
import { Signals } from '../../shared/platform/jobs/signals.js';
import { createLogger } from '../../shared/platform/logger.js';
import { LocalMediaStorage } from '../../shared/platform/storage/local-media-storage.js';
import type { MediaStorage } from '../../shared/platform/storage/media-storage.js';
import { QUEUES } from '../../shared/platform/jobs/queue.js';
import { jobHandlers } from '../../workers/jobs/index.js';
import type { WorkerServices } from '../../workers/job-context.js';
import { subscribeAll } from '../../workers/worker.js';
import { testWorkerServices, type TestWorkerServices } from './worker-services.js';

/** Media in a fresh temporary folder, served under the test app's /media. */
export function testMedia(): LocalMediaStorage {
  return new LocalMediaStorage(
    path.join(mkdtempSync(path.join(tmpdir(), 'jogatina-media-')), 'media'),
    'http://localhost:3000/media',
  );
}

/**
 * `media` with its `put` replaced by `put` (a storage that fails or races a write), `putFile` included (it
 * puts the file's bytes); the rest passes through.
 */
export function withPut(media: MediaStorage, put: MediaStorage['put']): MediaStorage {
  return {
    get: (key) => media.get(key),
    read: (key) => media.read(key),
    putFile: async (key, file, type) => put(key, await readFile(file), type),
    delete: (key) => media.delete(key),
    url: (key) => media.url(key),
    publicBaseUrl: media.publicBaseUrl,
    sweepTemporary: (olderThanMs) => media.sweepTemporary(olderThanMs),
    put,
  };
}

export interface ImageWorker {
  services: TestWorkerServices;
  stop(): Promise<void>;
}

export async function startImageWorker(overrides: Partial<WorkerServices>): Promise<ImageWorker> {
  const services = testWorkerServices(overrides);
  const signals = new Signals(process.env.DATABASE_URL!, createLogger('silent'));
  await subscribeAll({
    boss: boss(),
    signals,
    services,
    queues: { 'image.process': QUEUES['image.process'] },
    handlers: jobHandlers,
  });
  return {
    services,
    async stop() {
      await boss().offWork('image.process');
      await signals.close();
      await services.close();
    },
  };
}

/** Starts an image worker on `media` for the describe block. */
export function useImageWorker(media: () => LocalMediaStorage, overrides: Partial<WorkerServices> = {}) {
  let worker: ImageWorker | null = null;
  before(async function () {
    this.timeout(60000);
    worker = await startImageWorker({ media: media(), ...overrides });
  });
  after(() => worker?.stop());
  return () => worker!;
}
