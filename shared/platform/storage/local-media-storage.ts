// Media as files under MEDIA_DIR, for one-machine installs. A key is a relative path below the folder
// (the key rules keep it inside). Writes go to a hidden temporary file in the target's folder, are
// flushed, then renamed over the key: a reader sees the old object or the new one, never half of one,
// and a crash leaves at most a stray hidden temporary file, never a partial object at the key.
//
// Content type: a key with a known image extension (.avif, .webp, .png, .jpg/.jpeg, .gif) takes its
// type from the extension, so served images need no second file; any other key keeps its type in a
// hidden sidecar `.<name>.type` beside it, except application/octet-stream, which no sidecar means.
// Hidden names can never be keys (a key segment starts with a letter or digit), so neither temporary
// nor sidecar files can be read, overwritten or served as objects.
//
// A process killed between creating a temporary file and renaming it (SIGKILL, a crash, a power cut)
// leaves the temporary file for good: no row and no cleanup entry names it, since its random name is
// known only to the write that died. `sweepTemporary` (run by media.cleanup) removes the ones not written
// to for longer than its bound.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  copyFile,
  type FileHandle,
  link,
  lstat,
  mkdir,
  open,
  opendir,
  readFile,
  rename,
  unlink,
} from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  assertMediaKey,
  assertPut,
  contentTypeOfKey,
  MAX_KEY_SEGMENTS,
  mediaUrl,
  type MediaStorage,
  type StoredObject,
} from './media-storage.js';

const UNKNOWN_TYPE = 'application/octet-stream';

/** The name of a write's temporary file: `.<name>.<12 hex digits>.tmp` beside its target (writeAtomically). */
const TEMPORARY = /^\..+\.[0-9a-f]{12}\.tmp$/;

/** Error codes that mean "nothing stored at this key" (a missing file, or a folder where a file would be). */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/** Why a hard link cannot be made where a copy can: another file system, or one without links. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

function isMissing(error: unknown): boolean {
  return MISSING.has((error as NodeJS.ErrnoException).code ?? '');
}

export class LocalMediaStorage implements MediaStorage {
  /** The folder is created on the first write, so building the storage touches no disk. */
  constructor(
    readonly root: string,
    readonly publicBaseUrl: string,
  ) {}

  private file(key: string): string {
    return path.join(this.root, ...key.split('/'));
  }

  private sidecar(file: string): string {
    return path.join(path.dirname(file), `.${path.basename(file)}.type`);
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    try {
      const file = await this.prepare(key, contentType);
      await writeAtomically(file, body);
      await syncToDisk(path.dirname(file));
    } catch (error) {
      // A stream nobody will read any more would hold its source (a socket, a file) open.
      if (!Buffer.isBuffer(body)) body.destroy();
      throw error;
    }
  }

  /**
   * The file becomes the object by a hard link (no byte copied, the upload's temporary file and the object
   * share it until the request's folder is removed), or by the kernel's own copy when the two sit on
   * different file systems; flushed and renamed over the key like any other write.
   */
  async putFile(key: string, source: string, contentType: string): Promise<void> {
    const file = await this.prepare(key, contentType);
    await replaceAtomically(file, async (temporary) => {
      try {
        await link(source, temporary);
      } catch (error) {
        if (!CANNOT_LINK.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        await copyFile(source, temporary, constants.COPYFILE_EXCL);
      }
      await syncToDisk(temporary);
    });
    await syncToDisk(path.dirname(file));
  }

  /** Checks the write, makes the key's folder and settles its type (sidecar); answers the key's file. */
  private async prepare(key: string, contentType: string): Promise<string> {
    assertPut(key, contentType);
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    if (contentTypeOfKey(key) === null) {
      // The type is in place before the object appears, so a reader never finds an object without it.
      // The default type needs no sidecar (staged uploads are all of it): a stale one from before goes.
      if (contentType === UNKNOWN_TYPE) await unlinkIfPresent(this.sidecar(file));
      else await writeAtomically(this.sidecar(file), Buffer.from(contentType));
    }
    return file;
  }

  async get(key: string): Promise<StoredObject | null> {
    const opened = await this.openObject(key);
    if (!opened) return null;
    const { handle, file, bytes } = opened;
    try {
      const contentType = contentTypeOfKey(key) ?? (await this.storedType(file));
      // The stream owns the handle from here and closes it when it ends or is destroyed.
      return { body: handle.createReadStream(), contentType, bytes };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const opened = await this.openObject(key);
    if (!opened) return null;
    try {
      // One read of the file's size (its stream takes 64 KiB a step: 50 to 100 ms for a 13 MB capture
      // on a busy worker, against 5 to 7 here).
      return await opened.handle.readFile();
    } finally {
      await opened.handle.close();
    }
  }

  /**
   * The object's file opened, with its size, or null when the key holds none (nothing, or a folder). The
   * size comes from the open file, so it matches what is read even if the key is overwritten meanwhile
   * (the rename leaves this handle on the old file).
   */
  private async openObject(key: string): Promise<{ handle: FileHandle; file: string; bytes: number } | null> {
    assertMediaKey(key);
    const file = this.file(key);
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (stat.isFile()) return { handle, file, bytes: stat.size };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    await handle.close();
    return null;
  }

  private async storedType(file: string): Promise<string> {
    try {
      return (await readFile(this.sidecar(file), 'utf8')).trim() || UNKNOWN_TYPE;
    } catch (error) {
      if (isMissing(error)) return UNKNOWN_TYPE;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertMediaKey(key);
    const file = this.file(key);
    await unlinkIfPresent(file);
    // The object goes first: a crash in between leaves a harmless sidecar, never an object without type.
    if (contentTypeOfKey(key) === null) await unlinkIfPresent(this.sidecar(file));
  }

  url(key: string): string {
    return mediaUrl(this.publicBaseUrl, key);
  }

  /**
   * Walks the folders keys can make (at most MAX_KEY_SEGMENTS deep; a hidden folder holds no keys and is
   * not entered) and removes temporary files whose last write is older than `olderThanMs`. The folder is
   * read as a stream, so a folder of millions of images is walked without holding its listing.
   */
  async sweepTemporary(olderThanMs: number): Promise<number> {
    const before = Date.now() - olderThanMs;
    let removed = 0;
    const walk = async (folder: string, depth: number): Promise<void> => {
      let entries;
      try {
        entries = await opendir(folder);
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for await (const entry of entries) {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) {
          if (depth < MAX_KEY_SEGMENTS && !entry.name.startsWith('.')) await walk(file, depth + 1);
        } else if (entry.isFile() && TEMPORARY.test(entry.name)) {
          // Judged by the file's own last write: a write in progress keeps touching it. Two sweeps at once
          // may both find it; only the one that removes it counts it.
          const stat = await lstat(file).catch((error: unknown) => {
            if (isMissing(error)) return null;
            throw error;
          });
          if (stat && stat.mtimeMs < before && (await unlinkIfPresent(file))) removed += 1;
        }
      }
    };
    await walk(this.root, 1);
    return removed;
  }
}

/** Answers whether this call removed the file (false: it was not there, e.g. another sweep took it). */
async function unlinkIfPresent(file: string): Promise<boolean> {
  try {
    await unlink(file);
    return true;
  } catch (error) {
    if (!isMissing(error)) throw error;
    return false;
  }
}

/**
 * Writes a hidden temporary file beside `file` (named as TEMPORARY matches), flushes it to disk, and
 * renames it over `file`.
 */
async function writeAtomically(file: string, body: Buffer | Readable): Promise<void> {
  await replaceAtomically(file, async (temporary) => {
    const handle = await open(temporary, 'wx', 0o644);
    try {
      if (Buffer.isBuffer(body)) await writeAll(handle, body);
      else for await (const chunk of body) await writeAll(handle, Buffer.from(chunk as Buffer | string));
      // Without the flush, a power cut after the rename can leave an empty or short file at the key.
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
}

/** `fill` makes the temporary file beside `file` (flushed); it is then renamed over `file`, or removed. */
async function replaceAtomically(file: string, fill: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fill(temporary);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** `write` may write less than asked; loop until the whole chunk is down. */
async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length;) {
    offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
  }
}

/**
 * Flushes a file or a folder to disk: a file written elsewhere (a link to it, the kernel's copy), or the
 * folder a rename changed, which makes the rename itself durable (it lives in the folder's entry list).
 */
async function syncToDisk(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
