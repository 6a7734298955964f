// What routes and middleware reach through `ctx.services`: built once per process in createApp.
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { AuthServices } from '../shared/auth/services.js';
import type { Allowances } from '../shared/keys/allowances.js';
import type { Logger } from '../shared/platform/logger.js';
import type { ImageConfig, ArcadeConfig, OutboundConfig } from '../shared/platform/config.js';
import type { JobReplies } from '../shared/platform/jobs/request-reply.js';
import type { UploadServices } from '../shared/media/image-uploads.js';
import type { MediaStorage } from '../shared/platform/storage/media-storage.js';
import type { ViewRecorder } from '../shared/history/recording.js';

export interface ApiServices {
  knex: Knex;
  log: Logger;
  boss: () => PgBoss | null;
  auth: AuthServices;
  allowances: Allowances;
  /** Uploaded and processed media, on local disk or in a bucket (see shared/media/media-storage.ts). */
  media: MediaStorage;
  /** Waits for the answers of jobs a route must report (uploads). */
  replies: JobReplies;
  images: ImageConfig;
  /** Arcade's rules and the outbound guard's settings. */
  arcade: ArcadeConfig;
  outbound: OutboundConfig;
  keyPrefix: string;
  publicOrigin: string;
  /** `__Host-sid` with Secure when the site is https, else `sid`. */
  sessionCookie: { name: string; secure: boolean };
  /** The history's views, gathered and written a few milliseconds after their reads' answers. */
  views: ViewRecorder;
}

/** What an upload route hands to shared/media/image-uploads.ts. */
export function uploadServices(services: ApiServices): UploadServices {
  const { knex, media, replies, images, log } = services;
  return { knex, media, replies, images, log };
}

declare module 'koa' {
  interface DefaultContext {
    services: ApiServices;
  }
}
