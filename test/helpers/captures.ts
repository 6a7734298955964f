// Captures written through POST /screenshots (DECISIONS: Screenshots): the upload's form, small images made
// in code, and what a test puts straight in the database to stand at a limit (held captures, used uploads).
import sharp from 'sharp';
import { db } from '../../shared/platform/db/knex.js';
import type { HttpVerbs, TestResponse } from './http-client.js';
import { stillImage } from './images.js';
import { rollingUsesOf, seedRollingUses } from './rolling-uses.js';

/** A small photo-like JPEG, made once per seed. */
const made = new Map<number, Promise<Buffer>>();
export function captureJpeg(seed = 3): Promise<Buffer> {
  if (!made.has(seed)) made.set(seed, stillImage('jpeg', 320, 180, seed));
  return made.get(seed)!;
}

/** The upload's form: the fields as given (text, as a form carries them) and the image in `image`. */
export function captureForm(fields: Record<string, string | string[]>, image?: Buffer, name = 'capture.jpg'): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) {
    for (const each of Array.isArray(value) ? value : [value]) form.append(field, each);
  }
  if (image) form.append('image', new Blob([image], { type: 'image/jpeg' }), name);
  return form;
}

/** POST /screenshots with these fields and an image (a small JPEG unless given). */
export async function uploadCapture(
  client: HttpVerbs,
  fields: Record<string, string | string[]>,
  image?: Buffer | null,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  const file = image === null ? undefined : (image ?? (await captureJpeg()));
  return client.request('POST', '/api/v1/screenshots', { raw: captureForm(fields, file), headers });
}

/** Uses of the daily cap, `secondsAgo` each. */
export function seedCaptureUses(accountId: string, count: number, secondsAgo = 60): Promise<void> {
  return seedRollingUses(`screenshots:${accountId}`, count, secondsAgo);
}

/** The daily cap's uses held for the account (seeded ones past the window too, until the next use drops them). */
export function captureUsesOf(accountId: string): Promise<number> {
  return rollingUsesOf(`screenshots:${accountId}`);
}

/** `count` captures held by the account, `bytes` each, in one statement. */
export async function holdCaptures(accountId: string, count: number, bytes = 1000): Promise<void> {
  await db().raw(
    `INSERT INTO screenshots (account_id, public_id, game_id, image_key, image_width, image_height, bytes)
     SELECT ?, 'held' || g || '-' || substr(md5(random()::text), 1, 8), 1, 'screenshots/held-' || g || '-' ||
       substr(md5(random()::text), 1, 8) || '.avif', 10, 10, ? FROM generate_series(1, ?) g`,
    [accountId, bytes, count],
  );
}

/** What sharp reads of a stored file. */
export async function storedMetadata(body: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return sharp(Buffer.concat(chunks)).metadata();
}
