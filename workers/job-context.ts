// What a job handler is given besides its payload: the process's shared parts and the attempt's facts.
import type { Knex } from 'knex';
import type { Logger } from '../shared/platform/logger.js';
import type { MailTransport } from '../shared/platform/email/transport.js';
import type { ImagePool } from './images/image-pool.js';
import type { MediaStorage } from '../shared/platform/storage/media-storage.js';

export interface WorkerServices {
  knex: Knex;
  log: Logger;
  mail: MailTransport;
  media: MediaStorage;
  images: ImagePool;
}

export interface JobContext extends WorkerServices {
  jobId: string;
  queue: string;
  /** 0 on the first attempt. */
  retryCount: number;
  retryLimit: number;
}

export type JobHandler<P> = (payload: P, context: JobContext) => Promise<unknown>;
