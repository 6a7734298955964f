// Media in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2), for installs with several servers. The
// object's content type is S3's own `Content-Type`. URLs follow the same rule as the local storage
// (publicBaseUrl/key): by default the web process streams objects out of the bucket itself, so the
// bucket can stay private; MEDIA_PUBLIC_URL can point at a CDN or a public bucket instead.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { MediaConfig } from '../config.js';
import { assertMediaKey, assertPut, mediaUrl, type MediaStorage, type StoredObject } from './media-storage.js';

type S3Settings = NonNullable<MediaConfig['s3']>;

/** Uploads are at most 15 MB; a stream of unknown length is gathered (with room to spare) before sending. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export class S3MediaStorage implements MediaStorage {
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    settings: S3Settings,
    readonly publicBaseUrl: string,
  ) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      // Without explicit keys the SDK's usual chain applies (environment, instance role, ...).
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // A bucket that stops answering must not hold requests (and their sockets) forever.
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60000 },
    });
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    try {
      assertPut(key, contentType);
    } catch (error) {
      // A stream nobody will read would hold its source (a socket, a file) open.
      if (!Buffer.isBuffer(body)) body.destroy();
      throw error;
    }
    // PutObject needs a known length; a Buffer has one, a stream is gathered first.
    const bytes = Buffer.isBuffer(body) ? body : await gather(body);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
  }

  async putFile(key: string, file: string, contentType: string): Promise<void> {
    assertPut(key, contentType);
    await this.put(key, await readFile(file), contentType);
  }

  async read(key: string): Promise<Buffer | null> {
    const stored = await this.get(key);
    return stored && gather(stored.body);
  }

  async get(key: string): Promise<StoredObject | null> {
    assertMediaKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(answer.Body instanceof Readable)) throw new Error('S3 GetObject answered without a Node stream');
      return {
        body: answer.Body,
        contentType: answer.ContentType ?? 'application/octet-stream',
        bytes: answer.ContentLength ?? 0,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertMediaKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      // S3 answers 204 for a missing object; some compatible servers answer 404 instead.
      if (!isNotFound(error)) throw error;
    }
  }

  url(key: string): string {
    return mediaUrl(this.publicBaseUrl, key);
  }

  /**
   * Nothing to sweep: a PutObject (one request with a known length, never a multipart upload) stores all
   * of an object or nothing, so a worker killed mid-write leaves no partial or temporary object. The key it
   * was writing was queued in orphaned_media before the write, as with the local storage, and goes with it.
   * (A bucket that other tools write to by multipart should carry a lifecycle rule that aborts incomplete
   * multipart uploads; this service starts none.)
   */
  async sweepTemporary(_olderThanMs: number): Promise<number> {
    return 0;
  }
}

function isNotFound(error: unknown): boolean {
  // A missing bucket is a configuration fault to report, not an empty key.
  if (!(error instanceof S3ServiceException) || error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404;
}

async function gather(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk as Buffer | string);
    total += buffer.length;
    if (total > MAX_BUFFERED_BYTES) throw new Error(`Media upload larger than ${MAX_BUFFERED_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}
