// `GET /media/<key>` over real HTTP, with a local storage in a temporary folder.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { LocalMediaStorage } from '../../shared/platform/storage/local-media-storage.js';
import { S3MediaStorage } from '../../shared/platform/storage/s3-media-storage.js';
import { S3_CREDENTIALS, startS3Server, type S3Server } from '../helpers/s3-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/**
 * fetch normalises `..` and `%2e%2e` out of a URL before sending it, so traversal attempts go through
 * node:http, which sends the path exactly as written.
 */
function rawGet(baseUrl: string, rawPath: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/`, { path: rawPath }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
    });
    request.on('error', reject);
  });
}

describe('GET /media/<key>', () => {
  let folder: string;
  let app: TestApp;
  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'jogatina-media-files-'));
    // A file just outside the storage root: what a traversal would reach if keys were not checked.
    await writeFile(path.join(folder, 'secret'), 'top secret');
    const media = new LocalMediaStorage(path.join(folder, 'root'), 'http://localhost:3000/media');
    await media.put('avatars/ab/face.png', PNG, 'image/png');
    await media.put('exports/notes', Buffer.from('<script>alert(1)</script>'), 'text/html');
    await media.put('staging/upload-1.png', PNG, 'image/png');
    app = await startTestApp({ media });
  });
  after(async () => {
    await app.close();
    await rm(folder, { recursive: true });
  });

  it('serves a stored file with its type, size, and cache and safety headers', async () => {
    const res = await app.client.get('/media/avatars/ab/face.png');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/png');
    expect(res.headers.get('content-length')).to.equal(String(PNG.length));
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('content-security-policy')).to.match(/^default-src 'none'/);
    // The test client reads text; the bytes themselves are compared over a plain fetch.
    const bytes = await fetch(`${app.client.baseUrl}/media/avatars/ab/face.png`).then((r) => r.arrayBuffer());
    expect(Buffer.from(bytes).equals(PNG)).to.equal(true);
  });

  it('serves a stored file of another type as it was stored, unable to run script', async () => {
    const res = await app.client.get('/media/exports/notes');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html');
    expect(res.headers.get('content-security-policy')).to.equal("default-src 'none'; sandbox");
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await app.client.request('HEAD', '/media/avatars/ab/face.png');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/png');
    expect(res.headers.get('content-length')).to.equal(String(PNG.length));
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(res.text).to.equal('');
  });

  it('needs no session or key, and ignores an Authorization header that is not a key', async () => {
    const res = await app.client.get('/media/avatars/ab/face.png', { headers: { authorization: 'Bearer nonsense' } });
    expect(res.status).to.equal(200);
  });

  for (const [label, key] of [
    ['a missing file', 'avatars/ab/nobody.png'],
    ['anything under staging/', 'staging/upload-1.png'],
    ['a bad key', 'Avatars/AB/face.png'],
    ['an encoded slash', 'avatars%2fab%2fface.png'],
    ['an empty key', ''],
  ]) {
    it(`answers 404 in the error shape for ${label}`, async () => {
      const res = await app.client.get(`/media/${key}`);
      expect(res.status).to.equal(404);
      expect(res.body.error).to.deep.equal({ code: 'not_found', message: 'No media file is stored here.' });
      expect(res.headers.get('cache-control')).to.equal(null);
    });
  }

  for (const rawPath of ['/media/../secret', '/media/%2e%2e/secret', '/media/avatars/%2E%2E/%2e%2e/secret']) {
    it(`answers 404 to the traversal attempt ${rawPath}`, async () => {
      const res = await rawGet(app.client.baseUrl, rawPath);
      expect(res.status).to.equal(404);
      expect(res.body.error).to.deep.equal({ code: 'not_found', message: 'No media file is stored here.' });
    });
  }

  it('answers 405 in the error shape to other methods', async () => {
    const res = await app.client.delete('/media/avatars/ab/face.png');
    expect(res.status).to.equal(405);
    expect(res.body.error).to.include({ code: 'method_not_allowed' });
    expect(res.headers.get('allow')).to.equal('GET, HEAD');
  });
});

describe('GET /media/<key> from an S3 bucket', () => {
  let fake: S3Server;
  let media: S3MediaStorage;
  let app: TestApp;
  before(async () => {
    fake = await startS3Server(['media']);
    media = new S3MediaStorage(
      {
        bucket: 'media',
        region: 'us-east-1',
        endpoint: fake.endpoint,
        forcePathStyle: true,
        ...S3_CREDENTIALS,
      },
      'http://localhost:3000/media',
    );
    await media.put('avatars/ab/face.webp', PNG, 'image/webp');
    app = await startTestApp({ media });
  });
  after(async () => {
    await app.close();
    media.client.destroy();
    await fake.close();
  });

  it('serves the same URL as the local storage would, with the same headers', async () => {
    expect(media.url('avatars/ab/face.webp')).to.equal('http://localhost:3000/media/avatars/ab/face.webp');
    for (const method of ['GET', 'HEAD']) {
      const res = await app.client.request(method, '/media/avatars/ab/face.webp');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/webp');
      expect(res.headers.get('content-length')).to.equal(String(PNG.length));
      expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    }
  });

  it('answers 404 for a missing object and never asks the bucket about staging/', async () => {
    const asked = fake.requests.length;
    expect((await app.client.get('/media/staging/upload.webp')).status).to.equal(404);
    expect(fake.requests.length).to.equal(asked);
    expect((await app.client.get('/media/avatars/ab/nobody.webp')).status).to.equal(404);
  });
});
