// Where uploaded and processed media live: one small interface with two implementations, files on the
// local disk (one-machine installs) or an S3-compatible bucket (several servers sharing their files).
// Routes and workers reach it as `ctx.services.media` and never know which one runs. Both answer the
// same URLs, `config.media.publicBaseUrl + '/' + key`, served by the web process (api/routes/media-files.ts)
// unless MEDIA_PUBLIC_URL points elsewhere (a CDN in front of the bucket).
import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Readable;
  contentType: string;
  bytes: number;
}

export interface MediaStorage {
  /** Writes (or overwrites) an object. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /**
   * Writes the file at `file` (a path on this machine) as the object: an upload's staged original, which
   * the local storage hands over without copying its bytes (a hard link), so nothing may write to that
   * file afterwards; removing it is fine.
   */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** The object as a stream, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /**
   * The whole object in memory, or null when there is none: for a worker that needs all of it at once (an
   * upload's original), read in far fewer steps than its stream takes.
   */
  read(key: string): Promise<Buffer | null>;
  /** Removes an object; a missing one is not an error (deletes are retried by cleanup jobs). */
  delete(key: string): Promise<void>;
  /** The stable public URL of a stored object (`config.media.publicBaseUrl` + '/' + key). */
  url(key: string): string;
  /** That base, no trailing slash: statements that build many URLs (the feed) join it to keys themselves. */
  readonly publicBaseUrl: string;
  /**
   * Removes what writes that never finished (a process killed mid-write) left beside the objects, when it
   * was last written to more than `olderThanMs` ago, and answers how many. A write keeps its temporary
   * file for moments, never an hour, so a stale one belongs to no live write, and no row or cleanup queue
   * entry names it: this sweep (media.cleanup) is the one thing that removes it.
   */
  sweepTemporary(olderThanMs: number): Promise<number>;
}

/** Unprocessed uploads wait under this prefix; nothing under it is ever served. */
export const STAGING_PREFIX = 'staging/';

const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/;
const MAX_KEY_LENGTH = 200;
/** Keys have at most this many segments, so objects sit at most this many folders deep. */
export const MAX_KEY_SEGMENTS = 4;

/**
 * Keys are relative paths of lowercase segments. The rules make a key safe as a file path and as a URL
 * path without any escaping: no leading slash, no empty segment, no `..`, and (since a segment starts
 * with a letter or digit) no hidden names, which the local storage keeps for its own temporary and
 * type files.
 */
export function isValidMediaKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  const segments = key.split('/');
  if (segments.length > MAX_KEY_SEGMENTS) return false;
  return segments.every((segment) => SEGMENT.test(segment) && !segment.includes('..'));
}

/** A bad key is the caller's bug, not user input: the serving route checks keys before it asks. */
export function assertMediaKey(key: string): void {
  if (!isValidMediaKey(key)) throw new Error(`Invalid media key ${JSON.stringify(key)}`);
}

/** The content types that a key's extension fixes (see `assertPutType`). */
const TYPE_BY_EXTENSION: Record<string, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

/** The content type a key's extension implies, or null when the extension is not a known image one. */
export function contentTypeOfKey(key: string): string | null {
  const dot = key.lastIndexOf('.');
  if (dot < 0 || key.indexOf('/', dot) >= 0) return null;
  return TYPE_BY_EXTENSION[key.slice(dot + 1)] ?? null;
}

/**
 * Checks a put's key and type. A key with a known image extension must be stored with that extension's
 * type: the local storage derives the type from the extension instead of keeping it beside the file,
 * and refusing a mismatch in both implementations keeps them answering the same.
 */
export function assertPut(key: string, contentType: string): void {
  assertMediaKey(key);
  if (typeof contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/.test(contentType)) {
    throw new Error(`Invalid content type ${JSON.stringify(contentType)} for media key ${key}`);
  }
  const implied = contentTypeOfKey(key);
  if (implied !== null && contentType.toLowerCase() !== implied) {
    throw new Error(`Media key ${key} must be stored as ${implied}, not ${contentType}`);
  }
}

/** `publicBaseUrl` has no trailing slash (config strips it) and keys need no escaping. */
export function mediaUrl(publicBaseUrl: string, key: string): string {
  assertMediaKey(key);
  return `${publicBaseUrl}/${key}`;
}
