// Content screening: an nsfwjs classifier on the TensorFlow.js WASM backend, loaded once per thread and
// run on every uploaded image before it is encoded. The model ships inside the nsfwjs package (or sits in a
// folder named by SCREENING_MODEL), so screening needs no network. When the model cannot load, uploads
// fail with `screening_unavailable` rather than going through unchecked.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { NSFWJS } from 'nsfwjs';
import { SCREENING_MODELS } from '../../shared/platform/config.js';
import { ImageRefusal } from '../../shared/media/image-refusals.js';

export class ScreeningUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the screening model could not be loaded: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ScreeningUnavailableError';
  }
}

export interface ScreeningOptions {
  /** A bundled model name or an absolute folder holding model.json and its weight files. */
  model: string;
  /** Refuse when Porn and Hentai together score at least this (0 to 1). */
  threshold: number;
}

/** The class probabilities of one frame, as nsfwjs names them. */
export type FrameScores = Record<'Drawing' | 'Hentai' | 'Neutral' | 'Porn' | 'Sexy', number>;

/**
 * Explicit content is what we refuse: `Porn` and `Hentai`. `Sexy` (swimwear, suggestive poses) is left
 * alone, as are drawings, because game art is full of both.
 */
export function sensitiveScore(scores: FrameScores): number {
  return scores.Porn + scores.Hentai;
}

const SIZE = 224;
let loading: { model: string; promise: Promise<NSFWJS> } | null = null;

async function startBackend(): Promise<void> {
  const require = createRequire(import.meta.url);
  const wasmFile = require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm');
  setWasmPaths(`${path.dirname(wasmFile)}${path.sep}`);
  if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js WASM backend did not start');
  tf.enableProdMode();
}

/** Reads a TensorFlow.js model folder (model.json plus the weight files it lists) from disk. */
function folderHandler(folder: string): tf.io.IOHandler {
  return {
    async load() {
      const modelJson = JSON.parse(await readFile(path.join(folder, 'model.json'), 'utf8')) as tf.io.ModelJSON;
      return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
        const specs = manifest.flatMap((group) => group.weights);
        const parts = await Promise.all(
          manifest.flatMap((group) => group.paths).map((file) => readFile(path.join(folder, file))),
        );
        const joined = Buffer.concat(parts);
        return [specs, joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength)];
      });
    },
  };
}

async function loadModel(model: string): Promise<NSFWJS> {
  await startBackend();
  const nsfwjs = await import('nsfwjs');
  // nsfwjs announces the chosen model on the console; the worker's log says it instead.
  // eslint-disable-next-line no-console
  const info = console.info;
  // eslint-disable-next-line no-console
  console.info = () => undefined;
  try {
    if ((SCREENING_MODELS as readonly string[]).includes(model)) return await nsfwjs.load(model as never);
    const modelJson = JSON.parse(await readFile(path.join(model, 'model.json'), 'utf8')) as { format?: string };
    const screener = new nsfwjs.NSFWJS(folderHandler(model), {
      size: SIZE,
      type: modelJson.format === 'graph-model' ? 'graph' : undefined,
    });
    await screener.load();
    return screener;
  } finally {
    // eslint-disable-next-line no-console
    console.info = info;
  }
}

/** The thread's classifier, loaded on first use; a failed load is tried again by the next upload. */
export function screeningModel(model: string): Promise<NSFWJS> {
  if (loading?.model !== model) {
    const promise = loadModel(model).catch((error: unknown) => {
      loading = null;
      throw new ScreeningUnavailableError(error);
    });
    loading = { model, promise };
  }
  return loading.promise;
}

/** Scores one raw RGB frame of SIZE x SIZE pixels. */
export async function scoreFrame(screener: NSFWJS, frame: Uint8Array): Promise<FrameScores> {
  if (frame.length !== SIZE * SIZE * 3) throw new Error(`a screening frame is ${SIZE}x${SIZE} RGB`);
  const input = tf.tensor3d(Int32Array.from(frame), [SIZE, SIZE, 3], 'int32');
  try {
    const predictions = await screener.classify(input, 5);
    const scores = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 };
    for (const { className, probability } of predictions) scores[className as keyof FrameScores] = probability;
    return scores;
  } finally {
    input.dispose();
  }
}

/** The pipeline's screen: refuses the upload when any sampled frame is explicit. */
export function screenFrames(options: ScreeningOptions) {
  return async (frames: Uint8Array[]): Promise<void> => {
    const screener = await screeningModel(options.model);
    for (const frame of frames) {
      const score = sensitiveScore(await scoreFrame(screener, frame));
      if (score >= options.threshold) {
        throw new ImageRefusal('sensitive_image', 'The image was refused by content screening.');
      }
    }
  };
}
