// A real S3 implementation for tests: s3rver (an independent implementation of S3's REST API, objects kept
// in a temporary folder) on a loopback port inside the test process. It refuses a request that is not
// signed, or signed with a key it does not know (S3_CREDENTIALS is its one account), as S3 does; it does
// not recompute version-4 signatures. Requests are recorded on their way in, so a test can see which ones
// were made.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's one account: any other access key is refused (InvalidAccessKeyId). */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Request {
  method: string;
  bucket: string;
  key: string;
}

export interface S3Server {
  endpoint: string;
  requests: S3Request[];
  /** An object as a client with the right key reads it back, or null. */
  read(bucket: string, key: string): Promise<{ body: Buffer; contentType: string | undefined } | null>;
  close(): Promise<void>;
}

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'jogatina-s3rver-'));
  const s3rver = new S3rver({
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const requests: S3Request[] = [];
  const server = http.createServer((req, res) => {
    // Path-style: /bucket/key.
    const [bucket = '', ...key] = decodeURIComponent(new URL(req.url!, 'http://s3').pathname).slice(1).split('/');
    requests.push({ method: req.method!, bucket, key: key.join('/') });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const reader = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_CREDENTIALS });
  return {
    endpoint,
    requests,
    async read(bucket, key) {
      try {
        const object = await reader.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return { body: Buffer.from(await object.Body!.transformToByteArray()), contentType: object.ContentType };
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async close() {
      reader.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
