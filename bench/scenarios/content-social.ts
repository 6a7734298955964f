// The content benchmark's issue 23 writes (see content.ts): likes of lists, comments on reviews and
// profiles, and a 4K screenshot uploaded end to end through the web and worker processes.
//
// Lists are made through POST /lists before anything is measured (the demo seed makes none), by random
// writers with the visibilities people pick; only the PUBLIC ones are liked, each by a random writer who
// is not its owner, so repeats are rare. Comments go round the commenters in a shuffled order: one reaches
// the cap of 30 an hour only once the run has written 30 comments for every commenter.
import sharp from 'sharp';
import { DEFAULT_TIERS } from '../../shared/lists/rows.js';
import { photoPixels } from '../../test/helpers/images.js';
import type { GeneratedRequest } from '../lib/load.js';
import { startServer, type ServerProcess } from '../lib/processes.js';
import { between, chance, inTurn, pick } from '../lib/random.js';
import { summariseSamples } from '../lib/samples.js';
import type { Row } from '../lib/table.js';

/** What these writes need of the content world: writers' keys and ids in the same order, and targets. */
export interface SocialWorld {
  tokens: string[];
  writerIds: string[];
  /** Who comments: the writers and, on a seed with few writers, more people. */
  commenters: { tokens: string[]; ids: string[] };
  gameIds: number[];
  words: string[];
  /** PUBLIC reviews of people who may be seen (not suspended, no blocks). */
  reviews: Array<{ id: string; ownerId: string }>;
  /** People whose conversation is open to anyone (PUBLIC profiles, not suspended, no blocks). */
  profiles: Array<{ username: string; ownerId: string }>;
}

export interface LikeableList {
  id: string;
  ownerId: string;
}

const LISTS = Number(process.env.BENCH_CONTENT_LISTS ?? 2000);
const UPLOADS = Number(process.env.BENCH_CONTENT_UPLOADS ?? 15);
const VISIBILITIES = ['PUBLIC', 'PUBLIC', 'PUBLIC', 'FOLLOWERS', 'PRIVATE'];
const MODES = ['list', 'ranked', 'tier'] as const;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Words up to `length` code points (a word may be cut), never blank. */
function wordsOf(words: string[], length: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const word = pick(words);
    parts.push(word);
    size += word.length + 1;
  }
  const text = Array.from(parts.join(chance(0.05) ? '\n' : ' '))
    .slice(0, length)
    .join('')
    .trim();
  return text === '' ? pick(words) : text;
}

function listBody(world: SocialWorld): Record<string, unknown> {
  const mode = pick(MODES);
  const games = [...new Set(Array.from({ length: between(0, 20) }, () => pick(world.gameIds)))];
  return {
    title: wordsOf(world.words, between(3, 100)),
    description: chance(0.5) ? wordsOf(world.words, between(1, 500)) : '',
    visibility: pick(VISIBILITIES),
    mode,
    items: games.map((game_id) => (mode === 'tier' ? { game_id, tier: pick(DEFAULT_TIERS) } : { game_id })),
  };
}

/** LISTS lists by random writers through POST /lists, 10 at a time; answers the PUBLIC ones. */
export async function createLists(base: string, world: SocialWorld): Promise<LikeableList[]> {
  const started = Date.now();
  const made: LikeableList[] = [];
  let left = LISTS;
  let failed = 0;
  const one = async () => {
    while (left > 0) {
      left -= 1;
      const writer = between(0, world.tokens.length - 1);
      const body = listBody(world);
      const res = await fetch(`${base}/api/v1/lists`, {
        method: 'POST',
        headers: { ...bearer(world.tokens[writer]), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { data?: { id: string } };
      if (res.status !== 201) {
        failed += 1;
        if (failed === 1) console.error(`POST /lists answered ${res.status}: ${JSON.stringify(answer)}`);
        continue;
      }
      if (body.visibility === 'PUBLIC') made.push({ id: answer.data!.id, ownerId: world.writerIds[writer] });
    }
  };
  await Promise.all(Array.from({ length: 10 }, one));
  if (failed > 0) throw new Error(`${failed} of ${LISTS} lists were refused`);
  console.log(
    `made ${LISTS} lists (${made.length} public) through POST /lists in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return made;
}

/** A random writer likes a random PUBLIC list of someone else. */
export function likeWrite(world: SocialWorld, lists: LikeableList[]): GeneratedRequest {
  const list = pick(lists);
  let writer = between(0, world.tokens.length - 1);
  while (world.writerIds[writer] === list.ownerId) writer = between(0, world.tokens.length - 1);
  return { method: 'PUT', path: `/api/v1/likes/list/${list.id}`, headers: bearer(world.tokens[writer]) };
}

/** Comments made by commenters in turn (see the top of this file); `written` is how many so far. */
export function commenter(world: SocialWorld): { next(): GeneratedRequest; written(): number } {
  const { tokens, ids } = world.commenters;
  const nextWriter = inTurn(tokens.length);
  let count = 0;
  return {
    written: () => count,
    next() {
      const writer = nextWriter();
      count += 1;
      const self = ids[writer];
      let target: { on: string; id: string; ownerId: string };
      do {
        const onReview = world.profiles.length === 0 || (world.reviews.length > 0 && chance(0.75));
        if (onReview) {
          const review = pick(world.reviews);
          target = { on: 'REVIEW', id: review.id, ownerId: review.ownerId };
        } else {
          const profile = pick(world.profiles);
          target = { on: 'PROFILE', id: profile.username, ownerId: profile.ownerId };
        }
      } while (target.ownerId === self);
      // Mostly a line or two; one in four up to the 1,000 characters a comment holds.
      const length = chance(0.75) ? between(1, 200) : between(201, 1000);
      return {
        method: 'POST',
        path: '/api/v1/comments',
        body: { on: target.on, id: target.id, body: wordsOf(world.words, length) },
        headers: bearer(tokens[writer]),
      };
    },
  };
}

/**
 * A 3840x2160 PNG as a photo-like game capture: shapes over gradients, noise at every scale and grain,
 * so decoding, screening and encoding do their full work. Filtered per row as encoders that aim for small
 * files do; about 13 MB, under the 15 MB an upload may be.
 */
export async function screenshotPng(): Promise<Buffer> {
  const [width, height] = [3840, 2160];
  return sharp(await photoPixels(width, height, 23), { raw: { width, height, channels: 3 } })
    .png({ adaptiveFiltering: true })
    .toBuffer();
}

interface UploadAnswer {
  data?: { image_url: string; image_width: number; image_height: number; thumbnail_url: string | null };
}

/**
 * POST /screenshots of `png` by writer `writer` (each upload by another writer: far from every cap),
 * timed from sending the body until the answer is read.
 */
async function uploadOnce(base: string, world: SocialWorld, writer: number, png: Buffer) {
  const form = new FormData();
  form.append('game_id', String(pick(world.gameIds)));
  if (chance(0.5)) form.append('description', wordsOf(world.words, between(1, 300)));
  form.append('image', new Blob([png], { type: 'image/png' }), 'screenshot.png');
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/screenshots`, {
    method: 'POST',
    headers: bearer(world.tokens[writer % world.tokens.length]),
    body: form,
  });
  const answer = (await res.json()) as UploadAnswer;
  return { ms: performance.now() - started, status: res.status, answer };
}

/**
 * The upload row: a worker process started for it (and stopped after, so no other row shares the core
 * with it), one unmeasured upload while the image thread loads its model, then UPLOADS one at a time.
 */
export async function measureUploads(
  base: string,
  world: SocialWorld,
  workerEnv: Record<string, string>,
  problems: string[],
): Promise<Row> {
  const png = await screenshotPng();
  const name = `POST /screenshots 3840x2160 PNG (${UPLOADS}, one at a time)`;
  const worker: ServerProcess = await startServer('workers/index.ts', workerEnv, 'worker ready');
  try {
    const warm = await uploadOnce(base, world, 0, png);
    if (warm.status !== 201) problems.push(`upload warm-up answered ${warm.status}: ${JSON.stringify(warm.answer)}`);
    const samples: number[] = [];
    let errors = 0;
    for (let i = 1; i <= UPLOADS; i += 1) {
      const { ms, status, answer } = await uploadOnce(base, world, i, png);
      samples.push(ms);
      if (status !== 201) {
        errors += 1;
        if (errors === 1) problems.push(`upload answered ${status}: ${JSON.stringify(answer)}`);
      } else if (i === 1) {
        const stored = await fetch(answer.data!.image_url.replace(/^https?:\/\/[^/]+/, base));
        const bytes = (await stored.arrayBuffer()).byteLength;
        console.log(
          `upload: ${(png.length / 1048576).toFixed(1)} MiB PNG in -> ${answer.data!.image_width}x` +
            `${answer.data!.image_height}, ${(bytes / 1024).toFixed(0)} KB stored` +
            `${answer.data!.thumbnail_url ? ', with a thumbnail' : ''}`,
        );
      }
    }
    console.log(`upload times: ${samples.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    const result = { ...summariseSamples(samples), errors };
    if (result.p50 >= 1500) problems.push(`${name}: median ${result.p50.toFixed(0)} ms (target under 1500 ms)`);
    return { name, result };
  } finally {
    await worker.stop();
  }
}
