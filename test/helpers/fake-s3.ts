// A tiny S3-compatible server on a loopback port, inside the test process: path-style PUT, GET, HEAD
// and DELETE of objects, kept in memory. Signatures are not checked, but every request records whether
// it carried an Authorization header, so tests can see the client signs what it sends.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeObject {
  body: Buffer;
  contentType: string;
}

export interface FakeRequest {
  method: string;
  bucket: string;
  key: string;
  signed: boolean;
}

export interface FakeS3 {
  endpoint: string;
  /** `bucket/key` → object. */
  objects: Map<string, FakeObject>;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export async function startFakeS3(): Promise<FakeS3> {
  const objects = new Map<string, FakeObject>();
  const requests: FakeRequest[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-s3');
    const [bucket = '', ...rest] = url.pathname.slice(1).split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const method = req.method ?? 'GET';
    requests.push({ method, bucket, key, signed: typeof req.headers.authorization === 'string' });
    const id = `${bucket}/${key}`;

    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!bucket || !key) return fail(res, 400, 'InvalidRequest', 'Only object requests are supported.');
      // Streaming uploads in aws-chunked encoding are not understood here: say so rather than store junk.
      if (req.headers['content-encoding']?.includes('aws-chunked')) {
        return fail(res, 501, 'NotImplemented', 'aws-chunked uploads are not supported by the fake.');
      }
      if (method === 'PUT') {
        const body = Buffer.concat(chunks);
        const contentType = req.headers['content-type'] ?? 'binary/octet-stream';
        objects.set(id, { body, contentType });
        res.writeHead(200, { ETag: `"${body.length}"` }).end();
      } else if (method === 'GET' || method === 'HEAD') {
        const object = objects.get(id);
        if (!object) {
          if (method === 'HEAD') return void res.writeHead(404).end();
          return fail(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        }
        res.writeHead(200, {
          'Content-Type': object.contentType,
          'Content-Length': object.body.length,
          ETag: `"${object.body.length}"`,
        });
        res.end(method === 'GET' ? object.body : undefined);
      } else if (method === 'DELETE') {
        // Like S3: deleting a missing object succeeds.
        objects.delete(id);
        res.writeHead(204).end();
      } else {
        fail(res, 405, 'MethodNotAllowed', `${method} is not supported by the fake.`);
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK keeps connections alive; closing them lets the test process exit.
        server.closeAllConnections();
      }),
  };
}

function fail(res: http.ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) }).end(body);
}
