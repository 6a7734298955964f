// Layout images end to end: the route stages the upload, the real worker handler decodes, screens and
// encodes it in an image thread, and the answer comes back to the waiting route.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import sharp from 'sharp';
import { db } from '../../shared/platform/db/knex.js';
import { boss } from '../../shared/platform/jobs/boss.js';
import { cleanMediaNow } from '../../shared/media/media-cleanup.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { animatedGif, animatedPng, hugeFlatPng } from '../helpers/images.js';
import { everyTypeLayout } from '../helpers/layouts.js';
import { startTestApp, useTestApp } from '../helpers/test-app.js';

const FLAGGED = readFileSync(new URL('../fixtures/screening-flagged.png', import.meta.url));

function form(bytes: Buffer, name = 'image.jpg', type = 'image/jpeg'): FormData {
  const data = new FormData();
  data.append('image', new Blob([bytes], { type }), name);
  return data;
}

async function photo(width = 1200, height = 900): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="g"><stop offset="0" stop-color="#f4a"/><stop offset="1" stop-color="#135"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#2c8"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

async function rowsOf(accountId: string) {
  return db()('images').where({ account_id: accountId, purpose: 'layout' }).orderBy('created_at');
}

describe('layout images (/profile/layout/media)', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  it('starts empty with the quota', async () => {
    const { site } = await signedInClient(app.client);
    const res = await site.get('/api/v1/profile/layout/media');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      data: [],
      quota: { limit: 15, bytes_limit: 10485760, count: 0, bytes: 0 },
    });
  });

  it('stores a JPEG as AVIF, shrunk to fit 1600x1600, served at its URL with long caching', async () => {
    const { site, account } = await signedInClient(app.client);
    const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo(3200, 2400)) });
    expect(res.status, res.text).to.equal(201);
    const image = res.body.data;
    expect(Object.keys(image).sort()).to.deep.equal(
      ['animated', 'bytes', 'created_at', 'height', 'id', 'url', 'width'].sort(),
    );
    expect(image).to.include({ width: 1600, height: 1200, animated: false });
    expect(image.url).to.match(/^http:\/\/localhost:3000\/media\/layout\/[0-9a-f-]{36}\.avif$/);
    const served = await app.client.get(new URL(image.url).pathname);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('image/avif');
    expect(served.headers.get('cache-control')).to.include('immutable');
    expect(Number(served.headers.get('content-length'))).to.equal(image.bytes);
    // Nothing staged is left behind, and nothing waits for cleanup.
    expect(await db()('image_uploads')).to.have.length(0);
    expect(await db()('orphaned_media')).to.have.length(0);
    const list = await site.get('/api/v1/profile/layout/media');
    expect(list.body.data).to.deep.equal([{ ...image, in_use: false }]);
    expect(list.body.quota).to.deep.include({ count: 1, bytes: image.bytes });
    expect(await rowsOf(account.id)).to.have.length(1);
  });

  const refusals: Array<[string, () => Promise<Buffer>, string]> = [
    [
      'an SVG',
      async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'),
      'invalid_format',
    ],
    ['an HTML page named .png', async () => Buffer.from('<!doctype html><title>x</title><p>hi'), 'invalid_format'],
    ['a truncated JPEG', async () => (await photo()).subarray(0, 6000), 'invalid_image'],
    ['a 20000x20000 PNG of a few KB', hugeFlatPng, 'too_many_pixels'],
    ['a 301-frame GIF', () => animatedGif({ frames: 301, delay: 20 }), 'too_many_frames'],
    ['an animated PNG', () => animatedPng(), 'unsupported_animation'],
    ['an image the screening model finds explicit', async () => FLAGGED, 'sensitive_image'],
  ];
  for (const [what, make, reason] of refusals) {
    it(`refuses ${what} with 400 reason ${reason}, keeping nothing`, async () => {
      const { site, account } = await signedInClient(app.client);
      const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await make(), 'x.png') });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', reason });
      expect(await rowsOf(account.id)).to.have.length(0);
      expect(await db()('image_uploads')).to.have.length(0);
      // Neither the staged original nor a claim on it is left.
      expect(await db()('orphaned_media')).to.have.length(0);
    });
  }

  it('refuses a file over 15 MB as too_large before it reaches the worker', async () => {
    const { site } = await signedInClient(app.client);
    const res = await site.request('POST', '/api/v1/profile/layout/media', {
      raw: form(Buffer.alloc(15 * 1024 * 1024 + 1, 1)),
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ reason: 'too_large' });
  });

  it('asks for the file in the field "image"', async () => {
    const { site } = await signedInClient(app.client);
    const data = new FormData();
    data.append('picture', new Blob([await photo()]), 'a.jpg');
    const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: data });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ field: 'image', reason: 'missing' });
  });

  describe('the quota', () => {
    async function holdImages(accountId: string, count: number, bytes = 1000) {
      for (let i = 0; i < count; i += 1) {
        await db()('images').insert({
          account_id: accountId,
          purpose: 'layout',
          storage_key: `layout/held-${accountId}-${i}.avif`,
          content_type: 'image/avif',
          width: 10,
          height: 10,
          bytes,
          animated: false,
        });
      }
    }

    it('answers 409 quota_exceeded with the numbers when 15 images are held', async () => {
      const { site, account } = await signedInClient(app.client);
      await holdImages(account.id, 15);
      const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.deep.include({
        code: 'conflict',
        reason: 'quota_exceeded',
        limit: 15,
        count: 15,
        bytes_limit: 10485760,
        bytes: 15000,
      });
    });

    it('refuses the upload that would pass 10 MB, after encoding', async () => {
      const { site, account } = await signedInClient(app.client);
      await holdImages(account.id, 1, 10485760 - 10);
      const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.include({ reason: 'quota_exceeded', count: 1, bytes: 10485750 });
      expect(await rowsOf(account.id)).to.have.length(1);
      // The encoded file was stored before the quota said no; it is removed again.
      expect(await db()('orphaned_media')).to.have.length(0);
    });

    it('lets an account over a lowered quota keep its images but not upload', async () => {
      const { site, account } = await signedInClient(app.client);
      await holdImages(account.id, 17);
      const list = await site.get('/api/v1/profile/layout/media');
      expect(list.body.data).to.have.length(17);
      expect(list.body.quota).to.include({ count: 17, limit: 15 });
      const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      expect(res.status).to.equal(409);
    });
  });

  describe('in use, deleting, and the layout media map', () => {
    it('marks an image a layout names, refuses to delete it without force, and leaves a gap with force', async () => {
      const { site } = await signedInClient(app.client);
      const up = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      const id = up.body.data.id as string;
      const layout = everyTypeLayout();
      (layout as any).page.background = {
        media: { kind: 'media', id },
        fit: 'cover',
        position: 'center',
        dim: 0,
        tone: 'auto',
      };
      const saved = await site.put('/api/v1/profile/layout', { layout, version: 0 });
      expect(saved.status, saved.text).to.equal(200);

      const owner = await site.get('/api/v1/profile/layout');
      expect(owner.body.data.media).to.deep.equal({
        [id]: { url: up.body.data.url, width: up.body.data.width, height: up.body.data.height, animated: false },
      });
      const list = await site.get('/api/v1/profile/layout/media');
      expect(list.body.data[0]).to.include({ id, in_use: true });

      const refused = await site.delete(`/api/v1/profile/layout/media/${id}`);
      expect(refused.status).to.equal(409);
      expect(refused.body.error).to.include({ code: 'conflict', reason: 'in_use' });

      const forced = await site.delete(`/api/v1/profile/layout/media/${id}?force=true`);
      expect(forced.status).to.equal(200);
      expect((await app.client.get(new URL(up.body.data.url).pathname)).status).to.equal(404);
      const after = await site.get('/api/v1/profile/layout');
      // The layout keeps its reference; the map no longer draws it.
      expect(after.body.data.draft.page.background.media).to.deep.equal({ kind: 'media', id });
      expect(after.body.data.media).to.deep.equal({});
    });

    it('deletes an unused image, and answers 404 for another account’s image or a made-up id', async () => {
      const owner = await signedInClient(app.client);
      const other = await signedInClient(app.client);
      const up = await owner.site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      const id = up.body.data.id as string;
      for (const path of [`/api/v1/profile/layout/media/${id}`, '/api/v1/profile/layout/media/not-an-id']) {
        const res = await other.site.delete(path);
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
      expect(await rowsOf(owner.account.id)).to.have.length(1);
      expect((await owner.site.delete(`/api/v1/profile/layout/media/${id}`)).status).to.equal(200);
      expect(await rowsOf(owner.account.id)).to.have.length(0);
      expect((await owner.site.delete(`/api/v1/profile/layout/media/${id}`)).status).to.equal(404);
    });

    it('refuses force values other than a boolean', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.delete('/api/v1/profile/layout/media/00000000-0000-4000-8000-000000000000?force=yes');
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    });
  });

  describe('who may call', () => {
    it('answers 403 forbidden to an API key, even one with profile.write', async () => {
      const { account } = await signedInClient(app.client);
      const { token } = await appWithKey(account.id, ['profile.read', 'profile.write']);
      for (const method of ['GET', 'POST']) {
        const res = await app.client.request(method, '/api/v1/profile/layout/media', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).to.equal(403);
        expect(res.body.error.code).to.equal('forbidden');
      }
    });

    it('answers 403 mfa_required to upload and delete on a session owing its second factor', async () => {
      const { site } = await signedInClient(app.client, { twoFactor: true });
      expect((await site.get('/api/v1/profile/layout/media')).status).to.equal(200);
      const upload = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      expect(upload.status).to.equal(403);
      expect(upload.body.error.reason).to.equal('mfa_required');
      const remove = await site.delete('/api/v1/profile/layout/media/00000000-0000-4000-8000-000000000000');
      expect(remove.body.error.reason).to.equal('mfa_required');
    });

    it('allows 30 uploads per 10 minutes per account, then 429', async () => {
      const { site } = await signedInClient(app.client);
      // Uploads without a file still count: the allowance is spent before the body is read.
      const empty = new FormData();
      empty.append('nothing', 'here');
      for (let i = 0; i < 30; i += 1) {
        const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: empty });
        expect(res.status).to.equal(400);
      }
      const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      expect(res.status).to.equal(429);
      expect(res.body.error).to.include({ code: 'rate_limited', reason: 'too_many_uploads' });
    });
  });

  describe('media.cleanup', () => {
    it('removes images no layout has named for 7 days, keeps named and recently named ones, and staged leftovers', async () => {
      const { site, account } = await signedInClient(app.client);
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const up = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo(200, 150)) });
        ids.push(up.body.data.id);
      }
      const [unnamed, named, droppedRecently] = ids;
      const layout = everyTypeLayout();
      (layout as any).page.background = {
        media: { kind: 'media', id: droppedRecently },
        fit: 'cover',
        position: 'center',
        dim: 0,
        tone: 'auto',
      };
      await site.put('/api/v1/profile/layout', { layout, version: 0 });
      // A later save names another image instead: the first was named until then.
      (layout as any).page.background.media.id = named;
      await site.put('/api/v1/profile/layout', { layout, version: 1 });
      await db()('images')
        .whereIn('id', ids)
        .update({ created_at: db().raw("now() - interval '30 days'") });
      await db()('images')
        .where({ id: droppedRecently })
        .update({ last_named_at: db().raw("now() - interval '3 days'") });
      // A staged upload whose worker never finished.
      await media.put('staging/00000000-0000-4000-8000-00000000dead', Buffer.from('x'), 'application/octet-stream');
      await db()('image_uploads').insert({
        id: '00000000-0000-4000-8000-00000000dead',
        account_id: account.id,
        purpose: 'layout',
        staging_key: 'staging/00000000-0000-4000-8000-00000000dead',
        created_at: db().raw("now() - interval '2 hours'"),
      });

      const keys = Object.fromEntries((await rowsOf(account.id)).map((row) => [row.id, row.storage_key]));
      const report = await cleanMediaNow(db(), media);
      expect(report).to.deep.include({ abandoned_uploads: 1 });
      expect(report.unnamed_layout_images).to.be.at.least(1);
      expect((await rowsOf(account.id)).map((row) => row.id).sort()).to.deep.equal([named, droppedRecently].sort());
      expect(await media.get(keys[unnamed])).to.equal(null);
      const kept = await media.get(keys[named]);
      expect(kept).to.not.equal(null);
      kept!.body.destroy();
      expect(await media.get('staging/00000000-0000-4000-8000-00000000dead')).to.equal(null);
      expect(await db()('orphaned_media')).to.have.length(0);
      // A second run at once finds nothing more to do.
      expect(await cleanMediaNow(db(), media)).to.deep.equal({
        unnamed_layout_images: 0,
        abandoned_uploads: 0,
        orphaned_objects: 0,
        stale_temporary_files: 0,
      });
    });
  });
});

describe('layout image uploads when processing cannot answer', function () {
  this.timeout(30000);
  useCleanDatabase();

  it('answers 429 busy while the queue is full', async () => {
    const media = testMedia();
    const app = await startTestApp({ media, images: { busyAt: 2 } });
    try {
      const { site } = await signedInClient(app.client);
      // Two jobs wait and no worker takes them.
      await boss().send('image.process', { upload_id: '00000000-0000-4000-8000-000000000001' });
      await boss().send('image.process', { upload_id: '00000000-0000-4000-8000-000000000002' });
      const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      expect(res.status).to.equal(429);
      expect(res.body.error).to.include({ code: 'rate_limited', reason: 'busy' });
      expect(await db()('image_uploads')).to.have.length(0);
      expect(await db()('orphaned_media')).to.have.length(0);
    } finally {
      await db().raw("DELETE FROM pgboss.job WHERE name = 'image.process'");
      await app.close();
    }
  });

  it('answers 500 upload_unavailable when no worker answers in time, and leaves nothing staged', async () => {
    const media = testMedia();
    const app = await startTestApp({ media, images: { waitMs: 1000 } });
    try {
      const { site } = await signedInClient(app.client);
      const res = await site.request('POST', '/api/v1/profile/layout/media', { raw: form(await photo()) });
      expect(res.status).to.equal(500);
      expect(res.body.error).to.include({ code: 'internal', reason: 'upload_unavailable' });
      expect(await db()('image_uploads')).to.have.length(0);
      expect(await db()('orphaned_media')).to.have.length(0);
      const { rows } = await db().raw("SELECT state FROM pgboss.job WHERE name = 'image.process'");
      expect(rows.map((row: { state: string }) => row.state)).to.deep.equal(['cancelled']);
    } finally {
      await db().raw("DELETE FROM pgboss.job WHERE name = 'image.process'");
      await app.close();
    }
  });
});
