// One behaviour suite, run against both storages: the local one in a temporary folder, and the S3 one
// with a real S3Client talking to the in-process fake server.
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import type { Config } from '../../shared/platform/config.js';
import { LocalMediaStorage } from '../../shared/platform/storage/local-media-storage.js';
import { isValidMediaKey, type MediaStorage } from '../../shared/platform/storage/media-storage.js';
import { S3MediaStorage } from '../../shared/platform/storage/s3-media-storage.js';
import { S3_CREDENTIALS, startS3Server, type S3Server } from '../helpers/s3-server.js';
import { createMediaStorage } from '../../shared/platform/storage/create-media-storage.js';

const BASE_URL = 'https://cdn.example.test/media';

type MediaSettings = Pick<Config, 'media' | 'mediaDir'>;

async function read(storage: MediaStorage, key: string): Promise<{ text: string; type: string; bytes: number } | null> {
  const stored = await storage.get(key);
  if (!stored) return null;
  const text = Buffer.concat(await stored.body.toArray()).toString();
  return { text, type: stored.contentType, bytes: stored.bytes };
}

/** A stream that yields some bytes, then fails, like an upload cut off half way. */
function failingStream(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(64 * 1024, 1));
      } else this.destroy(new Error('connection reset'));
    },
  });
}

const BAD_KEYS: Array<[string, string]> = [
  ['empty', ''],
  ['a leading slash', '/avatars/a.png'],
  ['a trailing slash', 'avatars/'],
  ['an empty segment', 'avatars//a.png'],
  ['a parent segment', '../secret.png'],
  ['a parent segment inside', 'avatars/../secret.png'],
  ['a double dot inside a segment', 'avatars/a..png'],
  ['a current-folder segment', 'avatars/./a.png'],
  ['a hidden name', 'avatars/.a.png.type'],
  ['a segment starting with a dash', '-a.png'],
  ['uppercase', 'Avatars/a.png'],
  ['a space', 'avatars/a b.png'],
  ['a backslash', 'avatars\\a.png'],
  ['a percent escape', 'avatars%2fa.png'],
  ['a non-ASCII letter', 'avatars/é.png'],
  ['a NUL byte', 'avatars/a\0.png'],
  ['five segments', 'a/b/c/d/e.png'],
  ['more than 200 characters', `a/${'x'.repeat(195)}.png`],
];

function behavesAsMediaStorage(name: string, open: () => Promise<{ storage: MediaStorage; close(): Promise<void> }>) {
  describe(`${name}: the MediaStorage behaviour`, () => {
    let storage: MediaStorage;
    let close: () => Promise<void>;
    before(async () => ({ storage, close } = await open()));
    after(() => close());

    it('gives back what was put, with its content type and size', async () => {
      await storage.put('avatars/ab/one.png', Buffer.from('png bytes'), 'image/png');
      expect(await read(storage, 'avatars/ab/one.png')).to.deep.equal({
        text: 'png bytes',
        type: 'image/png',
        bytes: 9,
      });
    });

    it('takes a stream as the body', async () => {
      const body = Readable.from([Buffer.from('part one, '), Buffer.from('part two')]);
      await storage.put('layouts/two.webp', body, 'image/webp');
      expect(await read(storage, 'layouts/two.webp')).to.deep.equal({
        text: 'part one, part two',
        type: 'image/webp',
        bytes: 18,
      });
    });

    it('takes a file as the body, which may be removed afterwards', async () => {
      const folder = await temporaryFolder();
      try {
        const file = path.join(folder, 'upload');
        await writeFile(file, 'staged bytes');
        await storage.putFile('staging/upload-3', file, 'application/octet-stream');
        await rm(file);
        expect(await read(storage, 'staging/upload-3')).to.deep.equal({
          text: 'staged bytes',
          type: 'application/octet-stream',
          bytes: 12,
        });
        await expectRejected(storage.putFile('staging/upload-4', file, 'application/octet-stream'), /ENOENT/);
        expect(await storage.get('staging/upload-4')).to.equal(null);
      } finally {
        await rm(folder, { recursive: true });
      }
    });

    it('reads an object whole, and answers null for a missing one', async () => {
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
      await storage.put('staging/upload-5', bytes, 'application/octet-stream');
      expect((await storage.read('staging/upload-5'))!.equals(bytes)).to.equal(true);
      expect(await storage.read('staging/none')).to.equal(null);
      expect(await storage.read('nothing/here/at/all.gif')).to.equal(null);
    });

    it('keeps the content type of a key without a known image extension', async () => {
      await storage.put('staging/upload-1', Buffer.from('raw'), 'image/heic');
      expect(await read(storage, 'staging/upload-1')).to.deep.equal({ text: 'raw', type: 'image/heic', bytes: 3 });
    });

    it('overwrites an object', async () => {
      await storage.put('covers/three.jpg', Buffer.from('first version'), 'image/jpeg');
      await storage.put('covers/three.jpg', Buffer.from('second'), 'image/jpeg');
      expect(await read(storage, 'covers/three.jpg')).to.deep.equal({ text: 'second', type: 'image/jpeg', bytes: 6 });
    });

    it('answers null for a missing object', async () => {
      expect(await storage.get('avatars/none.png')).to.equal(null);
      expect(await storage.get('nothing/here/at/all.gif')).to.equal(null);
    });

    it('deletes an object, and a missing one without complaint', async () => {
      await storage.put('avatars/four.avif', Buffer.from('avif'), 'image/avif');
      await storage.delete('avatars/four.avif');
      expect(await storage.get('avatars/four.avif')).to.equal(null);
      await storage.delete('avatars/four.avif');
      await storage.delete('never/stored.png');
      await storage.put('staging/upload-2', Buffer.from('raw'), 'application/octet-stream');
      await storage.delete('staging/upload-2');
      expect(await storage.get('staging/upload-2')).to.equal(null);
    });

    it('refuses a content type that contradicts a known image extension', async () => {
      await expectRejected(storage.put('avatars/five.png', Buffer.from('x'), 'image/jpeg'), /image\/png/);
      await expectRejected(storage.put('avatars/five.png', Buffer.from('x'), 'not a type'), /content type/);
      expect(await storage.get('avatars/five.png')).to.equal(null);
    });

    for (const [label, key] of BAD_KEYS) {
      it(`refuses a key with ${label} in every method`, async () => {
        expect(isValidMediaKey(key)).to.equal(false);
        await expectRejected(storage.put(key, Buffer.from('x'), 'image/png'), /Invalid media key/);
        await expectRejected(storage.get(key), /Invalid media key/);
        await expectRejected(storage.read(key), /Invalid media key/);
        await expectRejected(storage.putFile(key, '/nonexistent', 'image/png'), /Invalid media key/);
        await expectRejected(storage.delete(key), /Invalid media key/);
        expect(() => storage.url(key)).to.throw(/Invalid media key/);
      });
    }

    it('builds the public URL from the base and the key', () => {
      expect(storage.url('avatars/ab/one.png')).to.equal(`${BASE_URL}/avatars/ab/one.png`);
    });
  });
}

async function expectRejected(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, 'should have been refused').to.be.instanceOf(Error);
  expect((error as Error).message).to.match(message);
}

/** A writable folder on another file system than `folder`'s (shared memory), or null where there is none. */
async function otherFileSystemThan(folder: string): Promise<string | null> {
  const device = (await stat(folder)).dev;
  for (const candidate of ['/dev/shm', '/run/shm']) {
    const found = await stat(candidate).catch(() => null);
    if (found?.isDirectory() && found.dev !== device) return candidate;
  }
  return null;
}

async function temporaryFolder(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'jogatina-media-'));
}

function localSettings(folder: string): MediaSettings {
  return { mediaDir: folder, media: { storage: 'local', publicBaseUrl: BASE_URL, s3: null } };
}

function s3Settings(fake: S3Server, credentials = S3_CREDENTIALS): MediaSettings {
  return {
    mediaDir: '/nowhere',
    media: {
      storage: 's3',
      publicBaseUrl: BASE_URL,
      s3: {
        bucket: 'jogatina-media',
        region: 'us-east-1',
        endpoint: fake.endpoint,
        forcePathStyle: true,
        ...credentials,
      },
    },
  };
}

describe('media storage', () => {
  behavesAsMediaStorage('local disk', async () => {
    const folder = await temporaryFolder();
    return { storage: createMediaStorage(localSettings(folder)), close: () => rm(folder, { recursive: true }) };
  });

  behavesAsMediaStorage('S3', async () => {
    const fake = await startS3Server(['jogatina-media']);
    const storage = createMediaStorage(s3Settings(fake));
    return {
      storage,
      close: async () => {
        (storage as S3MediaStorage).client.destroy();
        await fake.close();
      },
    };
  });

  describe('local disk specifics', () => {
    let folder: string;
    let storage: LocalMediaStorage;
    beforeEach(async () => {
      folder = await temporaryFolder();
      storage = createMediaStorage(localSettings(folder)) as LocalMediaStorage;
    });
    afterEach(() => rm(folder, { recursive: true }));

    it('is the implementation for MEDIA_STORAGE=local, and touches no disk until a write', async () => {
      expect(storage).to.be.instanceOf(LocalMediaStorage);
      await rm(folder, { recursive: true });
      expect(await storage.get('avatars/a.png')).to.equal(null);
      await storage.put('avatars/a.png', Buffer.from('a'), 'image/png');
      expect(await readdir(path.join(folder, 'avatars'))).to.deep.equal(['a.png']);
    });

    it('leaves no object and no temporary file when the body fails half way', async () => {
      await expectRejected(storage.put('avatars/cut.png', failingStream(), 'image/png'), /connection reset/);
      expect(await storage.get('avatars/cut.png')).to.equal(null);
      expect(await readdir(path.join(folder, 'avatars'))).to.deep.equal([]);
    });

    it('keeps the previous object when an overwrite fails half way', async () => {
      await storage.put('staging/upload', Buffer.from('whole'), 'image/heic');
      await expectRejected(storage.put('staging/upload', failingStream(), 'image/heic'), /connection reset/);
      expect(await read(storage, 'staging/upload')).to.deep.equal({ text: 'whole', type: 'image/heic', bytes: 5 });
      // The object and its type sidecar, nothing else.
      expect((await readdir(path.join(folder, 'staging'))).sort()).to.deep.equal(['.upload.type', 'upload']);
    });

    it('reads a folder at the key as no object', async () => {
      await storage.put('avatars/ab/one.png', Buffer.from('x'), 'image/png');
      expect(await storage.get('avatars/ab')).to.equal(null);
      expect(await storage.read('avatars/ab')).to.equal(null);
      await storage.delete('avatars/ab');
      expect(await storage.get('avatars/ab/one.png')).to.not.equal(null);
    });

    it('links a file on its own file system, copies one from another, and leaves no temporary file', async () => {
      const source = path.join(folder, 'upload-source');
      await writeFile(source, 'linked');
      await storage.putFile('staging/linked', source, 'application/octet-stream');
      // The same file, not a copy of it.
      expect((await stat(path.join(folder, 'staging', 'linked'))).ino).to.equal((await stat(source)).ino);
      await expectRejected(storage.putFile('staging/none', path.join(folder, 'missing'), 'image/heic'), /ENOENT/);
      expect((await readdir(path.join(folder, 'staging'))).sort()).to.deep.equal(['.none.type', 'linked']);
      // A hard link cannot cross file systems: shared memory is one where this machine has it.
      const elsewhere = await otherFileSystemThan(folder);
      if (elsewhere) {
        const remote = path.join(await mkdtemp(path.join(elsewhere, 'jogatina-media-')), 'upload');
        try {
          await writeFile(remote, 'copied');
          await storage.putFile('staging/copied', remote, 'application/octet-stream');
          expect((await read(storage, 'staging/copied'))?.text).to.equal('copied');
          expect((await stat(path.join(folder, 'staging', 'copied'))).ino).to.not.equal((await stat(remote)).ino);
        } finally {
          await rm(path.dirname(remote), { recursive: true });
        }
      }
    });

    it('keeps no sidecar for application/octet-stream, and drops a stale one on overwrite', async () => {
      await storage.put('staging/upload', Buffer.from('raw'), 'image/heic');
      await storage.put('staging/upload', Buffer.from('raw'), 'application/octet-stream');
      expect(await readdir(path.join(folder, 'staging'))).to.deep.equal(['upload']);
      expect((await read(storage, 'staging/upload'))?.type).to.equal('application/octet-stream');
    });

    it('removes the type sidecar with its object', async () => {
      await storage.put('staging/upload', Buffer.from('raw'), 'image/heic');
      await storage.delete('staging/upload');
      expect(await readdir(path.join(folder, 'staging'))).to.deep.equal([]);
    });

    it('sweeps temporary files untouched past the bound at every depth a key reaches, and nothing else', async () => {
      await storage.put('layout/kept.avif', Buffer.from('object'), 'image/avif');
      await storage.put('staging/upload', Buffer.from('raw'), 'image/heic');
      // What a write killed between creating and renaming its temporary file leaves (writeAtomically's names).
      const dead = [
        'layout/.0f3c.avif.0123456789ab.tmp',
        'staging/.upload.type.abcdef012345.tmp',
        'a/b/c/.d.png.00000000ffff.tmp',
      ];
      const live = 'layout/.1a2b.avif.ba9876543210.tmp';
      // Hidden but not a temporary file's name, and a temporary name inside a hidden folder no key reaches.
      const others = ['layout/.notes', 'layout/.0f3c.avif.tmp', '.git/.x.png.0123456789ab.tmp'];
      const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
      for (const name of [...dead, live, ...others]) {
        await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
        await writeFile(path.join(folder, name), 'partial');
        if (name !== live) await utimes(path.join(folder, name), hourAgo, hourAgo);
      }
      expect(await storage.sweepTemporary(60 * 60 * 1000)).to.equal(dead.length);
      const left = async (name: string) =>
        (await readdir(path.dirname(path.join(folder, name)))).includes(path.basename(name));
      for (const name of dead) expect(await left(name), name).to.equal(false);
      for (const name of [live, ...others]) expect(await left(name), name).to.equal(true);
      expect(await read(storage, 'layout/kept.avif')).to.deep.include({ text: 'object' });
      expect(await read(storage, 'staging/upload')).to.deep.include({ text: 'raw', type: 'image/heic' });
      // A second sweep finds nothing; one over a folder never written finds nothing either.
      expect(await storage.sweepTemporary(60 * 60 * 1000)).to.equal(0);
      await rm(folder, { recursive: true });
      expect(await storage.sweepTemporary(60 * 60 * 1000)).to.equal(0);
      await mkdir(folder);
    });
  });

  describe('S3 specifics', () => {
    let fake: S3Server;
    let storage: S3MediaStorage;
    before(async () => {
      fake = await startS3Server(['jogatina-media']);
      storage = createMediaStorage(s3Settings(fake)) as S3MediaStorage;
    });
    after(async () => {
      storage.client.destroy();
      await fake.close();
    });

    it('is the implementation for MEDIA_STORAGE=s3, and signs path-style requests to the bucket', async () => {
      expect(storage).to.be.instanceOf(S3MediaStorage);
      const before = fake.requests.length;
      await storage.put('avatars/ab/one.png', Buffer.from('png bytes'), 'image/png');
      await storage.get('avatars/ab/one.png');
      await storage.delete('avatars/ab/one.png');
      expect(fake.requests.slice(before).map(({ method, bucket, key }) => [method, bucket, key])).to.deep.equal([
        ['PUT', 'jogatina-media', 'avatars/ab/one.png'],
        ['GET', 'jogatina-media', 'avatars/ab/one.png'],
        ['DELETE', 'jogatina-media', 'avatars/ab/one.png'],
      ]);
      // The server refuses what is not signed with a key it knows: the client signs with the one configured.
      const wrong = createMediaStorage(
        s3Settings(fake, { accessKeyId: 'SOMEONE-ELSE', secretAccessKey: 'S3RVER' }),
      ) as S3MediaStorage;
      try {
        await expectRejected(wrong.put('avatars/ab/two.png', Buffer.from('x'), 'image/png'), /access key/i);
      } finally {
        wrong.client.destroy();
      }
      expect(await fake.read('jogatina-media', 'avatars/ab/two.png')).to.equal(null);
    });

    it('has no temporary objects to sweep: a PutObject stores all of an object or nothing', async () => {
      const before = fake.requests.length;
      expect(await storage.sweepTemporary(0)).to.equal(0);
      expect(fake.requests.length).to.equal(before);
    });

    it('sends a stream body with its content type, gathered to a known length', async () => {
      await storage.put('staging/upload', Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 'image/heic');
      const object = await fake.read('jogatina-media', 'staging/upload');
      expect(object?.body.toString()).to.equal('abcd');
      expect(object?.contentType).to.equal('image/heic');
    });
  });
});
