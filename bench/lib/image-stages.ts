// The `images` benchmark's baseline and its accounting: the pipeline's own work (inspect, decode with
// shrink-on-load, screening, resize, encode: processImage, with the worker's settings) timed in this
// process, on this thread and in an image thread of the worker's own pool class; and, for each upload
// through the web and worker processes, where its time went, from its job's row in pg-boss: before the
// job (the body, staging, the upload's row), the queue, the job (reading the staged file, the thread,
// storing, the rows) and the reply (the web process hearing of the job's end and answering).
import type { Knex } from 'knex';
import type { ImageProfileName } from '../../shared/media/image-profiles.js';
import sharp from 'sharp';
import { config } from '../../shared/platform/config.js';
import { ImagePool, sharpConcurrency } from '../../workers/images/image-pool.js';
import { processImage } from '../../workers/images/image-pipeline.js';
import { screenFrames, type ScreeningOptions } from '../../workers/images/image-screening.js';
import { summariseSamples } from './samples.js';

/** The bench's own median of sequential timings (samples.ts). */
const median = (values: number[]) => summariseSamples(values).p50;

/** The pipeline's median on this thread and in an image thread, each after one unmeasured run. */
export async function pipelineMedians(
  input: Buffer,
  profile: ImageProfileName,
  screening: ScreeningOptions,
  samples: number,
): Promise<{ inProcess: number; inThread: number }> {
  const screen = screenFrames(screening);
  const here: number[] = [];
  for (let i = 0; i <= samples; i += 1) {
    const started = performance.now();
    await processImage(Buffer.from(input), profile, screen);
    if (i > 0) here.push(performance.now() - started);
  }
  const pool = new ImagePool(1, screening);
  const there: number[] = [];
  try {
    for (let i = 0; i <= samples; i += 1) {
      const started = performance.now();
      const result = await pool.process(Buffer.from(input), profile);
      if (!result.ok) throw new Error(`the image thread refused the input: ${JSON.stringify(result)}`);
      if (i > 0) there.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return { inProcess: median(here), inThread: median(there) };
}

/** One upload as the benchmark timed it (wall clock, ms since the epoch). */
export interface TimedUpload {
  startedAt: number;
  endedAt: number;
}

export interface UploadStages {
  before: number;
  queue: number;
  job: number;
  reply: number;
}

/**
 * Each stage's median over `uploads` (made one at a time, in order), from the image.process jobs created
 * while they ran, matched in order. Null when the jobs cannot be matched one to one.
 */
export async function uploadStages(knex: Knex, uploads: TimedUpload[]): Promise<UploadStages | null> {
  const { rows } = await knex.raw<{ rows: Array<{ created: number; started: number; completed: number }> }>(
    `SELECT extract(epoch FROM created_on) * 1000 AS created, extract(epoch FROM started_on) * 1000 AS started,
       extract(epoch FROM completed_on) * 1000 AS completed
     FROM pgboss.job WHERE name = 'image.process' AND state = 'completed'
       AND created_on >= to_timestamp(?::double precision / 1000) AND created_on <= to_timestamp(?::double precision / 1000)
     ORDER BY created_on`,
    [uploads[0].startedAt, uploads[uploads.length - 1].endedAt],
  );
  if (rows.length !== uploads.length) return null;
  const stage = (pick: (upload: TimedUpload, job: (typeof rows)[number]) => number) =>
    median(uploads.map((upload, i) => pick(upload, rows[i])));
  return {
    before: stage((upload, job) => Number(job.created) - upload.startedAt),
    queue: stage((_, job) => Number(job.started) - Number(job.created)),
    job: stage((_, job) => Number(job.completed) - Number(job.started)),
    reply: stage((upload, job) => upload.endedAt - Number(job.completed)),
  };
}

/** How a worker started with this process's settings shares its cores among images (printed by the scenarios). */
export function imageThreading(): string {
  const threads = config().images.threads;
  return (
    `image threads per worker ${threads} (IMAGE_THREADS), sharp.concurrency() ${sharpConcurrency(threads)} in ` +
    `them (${sharp.concurrency()} in this process, sharp's default)`
  );
}
