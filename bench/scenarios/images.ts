// Image uploads through the real web and worker processes, one at a time: the time from sending the
// multipart body to the answer (staging, the job, decode, screening, encode, storing, the row), against the
// pipeline's own work timed in this process in the same run (bench/lib/image-stages.ts: processImage with
// the worker's settings, on this thread and in an image thread). Inputs: a 4000x3000 JPEG and a 100-frame
// GIF as layout images, and a 3840x2160 PNG capture (about 13 MB) through POST /screenshots. Target: each
// end-to-end median at most 1.3x of its in-process median, on any machine; where the difference goes is
// printed (before the job, the queue, the job beside the pipeline, the reply).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { config, resetConfigForTests } from '../../shared/platform/config.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import type { ImageProfileName } from '../../shared/media/image-profiles.js';
import { animatedGif, photoJpeg } from '../../test/helpers/images.js';
import { startApiServer } from '../lib/api-server.js';
import { imageThreading, pipelineMedians, uploadStages, type TimedUpload } from '../lib/image-stages.js';
import { startServer } from '../lib/processes.js';
import { summariseSamples } from '../lib/samples.js';
import type { Row } from '../lib/table.js';
import type { Scenario } from '../scenario.js';
import { screenshotPng } from './content-social.js';

const ORIGIN = 'http://localhost:3000';
const SECRET = 'bench-secret-0123456789abcdef0123456789';
const SAMPLES = 7;
/** End to end at most this many times the pipeline's own median. */
const TARGET_RATIO = 1.3;

interface Input {
  key: 'jpeg' | 'gif' | 'png';
  name: string;
  bytes: Buffer;
  file: string;
  profile: ImageProfileName;
  /** Where it is uploaded, and where it is removed again (room under the quotas for the next sample). */
  route: '/api/v1/profile/layout/media' | '/api/v1/screenshots';
}

async function signUp(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ email: `bench-${Date.now()}-${Math.random()}@example.test`, password: 'bench password 1' }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  return /sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
}

async function upload(base: string, cookie: string, input: Input, gameId: number): Promise<TimedUpload> {
  const form = new FormData();
  if (input.route === '/api/v1/screenshots') form.append('game_id', String(gameId));
  form.append('image', new Blob([input.bytes]), input.file);
  const startedAt = Date.now();
  const res = await fetch(`${base}${input.route}`, { method: 'POST', headers: { cookie, origin: ORIGIN }, body: form });
  const body = (await res.json()) as { data?: { id: string } };
  const endedAt = Date.now();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(body)}`);
  await fetch(`${base}${input.route}/${body.data!.id}`, { method: 'DELETE', headers: { cookie, origin: ORIGIN } });
  return { startedAt, endedAt };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

export const images: Scenario = {
  description:
    'image uploads answered through web + worker (a 4000x3000 JPEG, a 100-frame GIF, a 3840x2160 PNG ' +
    'capture) against the pipeline timed in process in the same run',
  target: 0,
  async run({ database }) {
    process.env.SECRET = SECRET;
    resetConfigForTests();
    const mediaDir = mkdtempSync(path.join(tmpdir(), 'jogatina-bench-media-'));
    const env = { MEDIA_DIR: mediaDir, PUBLIC_URL: ORIGIN };
    const knex = createKnex(database.url, 2);
    const web = await startApiServer(database.url, env);
    const worker = await startServer(
      'workers/index.ts',
      { DATABASE_URL: database.url, LOG_LEVEL: 'info', NODE_ENV: 'production', SECRET, ...env },
      'worker ready',
    );
    const problems: string[] = [];
    const ratios: string[] = [];
    const rows: Row[] = [];
    try {
      const base = `http://127.0.0.1:${web.port}`;
      const [game] = await knex('games').insert({ slug: 'bench-images', name: 'Bench Images' }).returning('id');
      const inputs: Input[] = [
        {
          key: 'jpeg',
          name: '4000x3000 JPEG',
          bytes: await photoJpeg(4000, 3000),
          file: 'photo.jpg',
          profile: 'layout',
          route: '/api/v1/profile/layout/media',
        },
        {
          key: 'gif',
          name: '100-frame GIF 400x300',
          bytes: await animatedGif({ frames: 100, width: 400, height: 300, delay: 40 }),
          file: 'a.gif',
          profile: 'layout',
          route: '/api/v1/profile/layout/media',
        },
        {
          key: 'png',
          name: '3840x2160 PNG capture',
          bytes: await screenshotPng(),
          file: 'capture.png',
          profile: 'capture',
          route: '/api/v1/screenshots',
        },
      ];
      const screening = { model: config().images.screeningModel, threshold: config().images.screeningThreshold };
      console.log(imageThreading());
      for (const input of inputs) {
        // A fresh account per input keeps each under the upload allowances.
        const cookie = await signUp(base);
        await upload(base, cookie, input, game.id); // warm-up: the thread loads its model
        const uploads: TimedUpload[] = [];
        for (let i = 0; i < SAMPLES; i += 1) uploads.push(await upload(base, cookie, input, game.id));
        const endToEnd = summariseSamples(uploads.map((u) => u.endedAt - u.startedAt));
        const stages = await uploadStages(knex, uploads);
        const own = await pipelineMedians(input.bytes, input.profile, screening, SAMPLES);
        const ratio = endToEnd.p50 / own.inProcess;
        ratios.push(`${input.key} ${ratio.toFixed(2)}x`);
        if (ratio > TARGET_RATIO) {
          problems.push(`${input.name}: end to end at ${ratio.toFixed(2)}x of in process (target ${TARGET_RATIO}x)`);
        }
        console.log(
          `${input.name} (${(input.bytes.length / 1048576).toFixed(1)} MiB): end to end ${ms(endToEnd.p50)}, ` +
            `in process ${ms(own.inProcess)}, in an image thread ${ms(own.inThread)}: ${ratio.toFixed(2)}x; ` +
            (stages
              ? `before the job (body, staging, row) ${ms(stages.before)}, queue ${ms(stages.queue)}, job ` +
                `${ms(stages.job)} (the thread's pipeline about ${ms(own.inThread)}, reading, storing and the rows ` +
                `about ${ms(stages.job - own.inThread)}), reply ${ms(stages.reply)}`
              : 'the jobs could not be matched to the uploads'),
        );
        rows.push({ name: `${input.name}, in process`, result: summariseSamples([own.inProcess]) });
        rows.push({ name: `${input.name}, end to end`, result: endToEnd });
      }
      return {
        rows,
        baseline: `${inputs[0].name}, in process`,
        subject: `${inputs[0].name}, end to end`,
        problems,
        summary: `images ratio: ${ratios.join(', ')} (end to end / in process)`,
      };
    } finally {
      await worker.stop();
      await web.stop();
      await knex.destroy();
    }
  },
};
