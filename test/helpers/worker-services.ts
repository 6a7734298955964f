// The services a worker gives its job handlers, for tests that run handlers in this process: media in a
// temporary folder, mail as files, and image threads started only when a test first processes an image.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { db } from '../../shared/platform/db/knex.js';
import { createMailTransport } from '../../shared/platform/email/transport.js';
import { createLogger } from '../../shared/platform/logger.js';
import { ImagePool } from '../../workers/images/image-pool.js';
import { LocalMediaStorage } from '../../shared/platform/storage/local-media-storage.js';
import type { WorkerServices } from '../../workers/job-context.js';

export interface TestWorkerServices extends WorkerServices {
  mediaDir: string;
  /** Where the file mail transport writes each message as `<outbox id>.eml`. */
  mailDir: string;
  close(): Promise<void>;
}

export function testWorkerServices(overrides: Partial<WorkerServices> = {}): TestWorkerServices {
  const dir = mkdtempSync(path.join(tmpdir(), 'jogatina-worker-'));
  let pool: ImagePool | null = null;
  return {
    knex: db(),
    log: createLogger(process.env.TEST_LOG ?? 'silent'),
    mail: createMailTransport({ smtpUrl: null, mailDir: path.join(dir, 'mail'), from: 'x@y.z' }),
    media: new LocalMediaStorage(path.join(dir, 'media'), 'http://localhost:3000/media'),
    get images() {
      pool ??= new ImagePool(1, { model: 'MobileNetV2', threshold: 0.7 });
      return pool;
    },
    mediaDir: path.join(dir, 'media'),
    mailDir: path.join(dir, 'mail'),
    async close() {
      await pool?.close();
    },
    ...overrides,
  };
}
