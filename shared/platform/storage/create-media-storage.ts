// Builds the storage the configuration names, once per process (api/app.ts, the workers, operator
// commands). Apart from the interface (media-storage.ts), so the implementations import the interface
// and nothing imports them back.
import type { Config } from '../config.js';
import { LocalMediaStorage } from './local-media-storage.js';
import type { MediaStorage } from './media-storage.js';
import { S3MediaStorage } from './s3-media-storage.js';

/** The storage the configuration names; built once per process (see api/app.ts and the workers). */
export function createMediaStorage(config: Pick<Config, 'media' | 'mediaDir'>): MediaStorage {
  const { media } = config;
  if (media.storage === 's3') {
    if (!media.s3) throw new Error('MEDIA_STORAGE is s3 but the S3 settings are missing');
    return new S3MediaStorage(media.s3, media.publicBaseUrl);
  }
  return new LocalMediaStorage(config.mediaDir, media.publicBaseUrl);
}
