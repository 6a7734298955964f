// The image settings of the configuration (config.ts reads them with its Reader): how long an upload
// waits for the worker, when uploads are refused as busy, the worker's image threads and the screening.
import { availableParallelism } from 'node:os';
import path from 'node:path';

export interface ImageConfig {
  /** How long an upload route waits for the worker's answer. */
  waitMs: number;
  /** Uploads answer 429 `busy` while this many image jobs wait. */
  busyAt: number;
  /** Worker threads per worker process that decode, screen and encode. */
  threads: number;
  /** A bundled nsfwjs model name, or an absolute folder holding model.json and its weight files. */
  screeningModel: string;
  /** Refuse when the sexual classes together score at least this (0 to 1). */
  screeningThreshold: number;
}

export const SCREENING_MODELS = ['MobileNetV2', 'MobileNetV2Mid', 'InceptionV3'] as const;

/** What of config.ts's Reader the image settings use. */
interface SettingsReader {
  string(name: string, fallback: string): string;
  integer(name: string, fallback: number, min: number, max: number): number;
  fail(message: string): void;
}

export function readImages(read: SettingsReader): ImageConfig {
  const model = read.string('SCREENING_MODEL', 'MobileNetV2');
  if (!(SCREENING_MODELS as readonly string[]).includes(model) && !path.isAbsolute(model)) {
    read.fail(`SCREENING_MODEL must be one of ${SCREENING_MODELS.join(', ')} or an absolute folder, got "${model}"`);
  }
  return {
    // Below image.process's 120 s expiry, so a job never outlives the route that waits for it.
    waitMs: read.integer('IMAGE_WAIT_MS', 30000, 1000, 110000),
    busyAt: read.integer('IMAGE_QUEUE_BUSY_AT', 20, 1, 10000),
    // One image thread per two cores by default (at least one), each upload's libvips work spread over the
    // cores the threads leave (image-pool.ts): a machine with more cores answers each upload sooner and
    // takes more at once, with no setting changed.
    threads: read.integer('IMAGE_THREADS', Math.max(1, Math.floor(availableParallelism() / 2)), 1, 16),
    screeningModel: model,
    screeningThreshold: read.integer('SCREENING_THRESHOLD_PERCENT', 70, 1, 100) / 100,
  };
}
