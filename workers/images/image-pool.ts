// The worker process's image threads (IMAGE_THREADS of them). Each keeps its classifier loaded between
// jobs; a thread that crashes is replaced by piscina and the job that crashed it fails.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import type { ImageProfileName } from '../../shared/media/image-profiles.js';
import type { ScreeningOptions } from './image-screening.js';
import type { ImageTask, ImageTaskResult, ImageThreadData } from './image-thread.js';

/**
 * libvips' threads for one image (sharp.concurrency(), shared by the process's image threads): the cores
 * shared out among the image threads, so one upload decodes and resizes on every core it can have while
 * the threads together never ask for more than the machine has. sharp's own default on glibc is 1, which
 * left a bigger machine's cores idle for a single upload.
 */
export function sharpConcurrency(threads: number): number {
  return Math.max(1, Math.floor(availableParallelism() / threads));
}

export class ImagePool {
  private readonly pool: Piscina<ImageTask, ImageTaskResult>;

  constructor(
    threads: number,
    private readonly screening: ScreeningOptions,
  ) {
    // The thread file is this one's kind: TypeScript under `--import tsx` (which the thread inherits), or
    // JavaScript in the compiled build.
    this.pool = new Piscina({
      filename: new URL(`./image-thread${path.extname(import.meta.url)}`, import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      workerData: { sharpConcurrency: sharpConcurrency(threads) } satisfies ImageThreadData,
      // A thread keeps its loaded model; there is no point in letting it go idle.
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  }

  /**
   * Runs one image in a thread. `input` is moved there, not copied, when it owns its whole memory (a file
   * read whole): a 13 MB capture's copy cost the job tens of milliseconds. Moved, it is empty here after.
   */
  process(input: Buffer, profile: ImageProfileName): Promise<ImageTaskResult> {
    const task = { input, profile, screening: this.screening };
    const owned = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength;
    return owned && input.buffer instanceof ArrayBuffer
      ? this.pool.run(task, { transferList: [input.buffer] })
      : this.pool.run(task);
  }

  /** What the worker's metrics report of the threads: how many, how busy since start, what waits. */
  usage(): { threads: number; utilization: number; queued: number; completed: number } {
    const pool = this.pool;
    return {
      threads: pool.threads.length,
      utilization: pool.utilization,
      queued: pool.queueSize,
      completed: pool.completed,
    };
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
