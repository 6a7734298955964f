// Avatar and banner with their history, app icons, and the upload failures the worker can report.
import { expect } from 'chai';
import sharp from 'sharp';
import { db } from '../../shared/platform/db/knex.js';
import { ImagePool } from '../../workers/images/image-pool.js';
import type { TestClient } from '../helpers/http-client.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { startImageWorker, testMedia, useImageWorker } from '../helpers/image-worker.js';
import { animatedGif } from '../helpers/images.js';
import { startTestApp, useTestApp } from '../helpers/test-app.js';

function form(bytes: Buffer): FormData {
  const data = new FormData();
  data.append('image', new Blob([bytes], { type: 'image/png' }), 'picture.png');
  return data;
}

async function square(size: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

describe('profile pictures (avatar, banner, /profile/images)', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  async function upload(site: { request: TestClient['request'] }, kind: 'avatar' | 'banner', bytes: Buffer) {
    return site.request('POST', `/api/v1/profile/${kind}`, { raw: form(bytes) });
  }

  it('sets the avatar under the avatar rules (fit 512x512) and shows it on the profile', async () => {
    const { site } = await signedInClient(app.client);
    const res = await upload(site, 'avatar', await square(900, '#336699'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data).to.include({ kind: 'AVATAR', width: 512, height: 512, animated: false });
    const profile = await site.get('/api/v1/profile');
    expect(profile.body.data.avatar_url).to.equal(res.body.data.url);
    expect(profile.body.data.banner_url).to.equal(null);
  });

  it('keeps an animated avatar animated, as WebP', async () => {
    const { site } = await signedInClient(app.client);
    const res = await upload(site, 'avatar', await animatedGif({ frames: 4, delay: 100 }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data).to.include({ animated: true });
    expect(res.body.data.url).to.match(/\.webp$/);
  });

  it('keeps earlier pictures in the history, lists them newest first, and forgets one', async () => {
    const { site, account } = await signedInClient(app.client);
    const first = await upload(site, 'avatar', await square(100, '#111111'));
    const second = await upload(site, 'avatar', await square(100, '#222222'));
    const third = await upload(site, 'avatar', await square(100, '#333333'));
    await upload(site, 'banner', await square(300, '#444444'));

    const history = await site.get('/api/v1/profile/images?kind=AVATAR');
    expect(history.status).to.equal(200);
    expect(history.body.data.map((item: { id: string }) => item.id)).to.deep.equal([
      second.body.data.id,
      first.body.data.id,
    ]);
    expect(history.body.data[0]).to.include({ kind: 'AVATAR' });
    expect(history.body.page).to.include({ number: 1, total_items: 2, has_more: false });
    expect((await site.get('/api/v1/profile/images?kind=BANNER')).body.data).to.have.length(0);

    const current = await site.delete(`/api/v1/profile/images/${third.body.data.id}`);
    expect(current.status).to.equal(409);
    expect(current.body.error.reason).to.equal('in_use');

    expect((await site.delete(`/api/v1/profile/images/${first.body.data.id}`)).status).to.equal(200);
    const after = await site.get('/api/v1/profile/images?kind=AVATAR');
    expect(after.body.data.map((item: { id: string }) => item.id)).to.deep.equal([second.body.data.id]);
    expect((await site.get('/api/v1/profile')).body.data.avatar_url).to.equal(third.body.data.url);
    expect(await db()('images').where({ account_id: account.id })).to.have.length(3);
  });

  it('keeps the 10 newest earlier pictures per kind, removing older ones with their files', async () => {
    const { site, account } = await signedInClient(app.client);
    const urls: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await upload(site, 'avatar', await square(16, `#0000${(i * 16).toString(16).padStart(2, '0')}`));
      urls.push(res.body.data.url);
    }
    const history = await site.get('/api/v1/profile/images?kind=AVATAR');
    expect(history.body.data.map((item: { url: string }) => item.url)).to.deep.equal(urls.slice(1, 11).reverse());
    expect(await db()('images').where({ account_id: account.id })).to.have.length(11);
    expect(await media.get(new URL(urls[0]).pathname.replace('/media/', ''))).to.equal(null);
  });

  it('clears the avatar into the history', async () => {
    const { site } = await signedInClient(app.client);
    const up = await upload(site, 'avatar', await square(100, '#555555'));
    expect((await site.delete('/api/v1/profile/avatar')).status).to.equal(200);
    expect((await site.get('/api/v1/profile')).body.data.avatar_url).to.equal(null);
    const history = await site.get('/api/v1/profile/images?kind=AVATAR');
    expect(history.body.data.map((item: { id: string }) => item.id)).to.deep.equal([up.body.data.id]);
  });

  it('needs kind AVATAR or BANNER, and answers 404 for another account’s picture', async () => {
    const owner = await signedInClient(app.client);
    const other = await signedInClient(app.client);
    for (const query of ['', '?kind=avatar', '?kind=PHOTO']) {
      const res = await owner.site.get(`/api/v1/profile/images${query}`);
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
    const first = await upload(owner.site, 'avatar', await square(100, '#666666'));
    await upload(owner.site, 'avatar', await square(100, '#777777'));
    const res = await other.site.delete(`/api/v1/profile/images/${first.body.data.id}`);
    expect(res.status).to.equal(404);
    expect((await owner.site.get('/api/v1/profile/images?kind=AVATAR')).body.data).to.have.length(1);
  });

  it('lets a key with profile.read read the history and profile.write forget, but not upload', async () => {
    const { site, account } = await signedInClient(app.client);
    const { token } = await appWithKey(account.id, ['profile.read']);
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.client.get('/api/v1/profile/images?kind=AVATAR', { headers })).status).to.equal(200);
    const first = await upload(site, 'avatar', await square(100, '#888888'));
    await upload(site, 'avatar', await square(100, '#999999'));
    const refused = await app.client.delete(`/api/v1/profile/images/${first.body.data.id}`, { headers });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('insufficient_scope');
    const keyUpload = await app.client.request('POST', '/api/v1/profile/avatar', {
      headers,
      raw: form(await square(10, '#000000')),
    });
    expect(keyUpload.status).to.equal(403);
  });
});

describe('app icons (/account/apps/{id}/icon)', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  it('sets, replaces and removes the icon; icon_url follows on the app', async () => {
    const { site, account } = await signedInClient(app.client);
    const { app: created } = await appWithKey(account.id);
    const path = `/api/v1/account/apps/${created.id}/icon`;
    const first = await site.request('POST', path, { raw: form(await square(1024, '#a0a0ff')) });
    expect(first.status, first.text).to.equal(201);
    const stored = await db()('images').where({ app_id: created.id }).first();
    expect(first.body.data.id).to.equal(stored.id);
    expect(stored).to.include({ width: 512, height: 512, purpose: 'app_icon' });
    expect((await site.get(`/api/v1/account/apps/${created.id}`)).body.data.icon_url).to.equal(
      first.body.data.icon_url,
    );

    const second = await site.request('POST', path, { raw: form(await square(64, '#00ff00')) });
    expect(second.body.data.icon_url).to.not.equal(first.body.data.icon_url);
    expect(await db()('images').where({ app_id: created.id })).to.have.length(1);
    expect(await media.get(new URL(first.body.data.icon_url).pathname.replace('/media/', ''))).to.equal(null);

    const removed = await site.delete(path);
    expect(removed.body.data).to.deep.equal({ id: created.id, icon_url: null });
    expect((await site.get('/api/v1/account/apps')).body.data[0].icon_url).to.equal(null);
  });

  it('refuses an animation over 15 seconds as animation_too_long', async () => {
    const { site, account } = await signedInClient(app.client);
    const { app: created } = await appWithKey(account.id);
    const res = await site.request('POST', `/api/v1/account/apps/${created.id}/icon`, {
      raw: form(await animatedGif({ frames: 16, delay: 1000 })),
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'invalid_request', reason: 'animation_too_long' });
  });

  it('answers 404 for another account’s app, before reading the file', async () => {
    const owner = await signedInClient(app.client);
    const other = await signedInClient(app.client);
    const { app: created } = await appWithKey(owner.account.id);
    const res = await other.site.request('POST', `/api/v1/account/apps/${created.id}/icon`, {
      raw: form(await square(64, '#123456')),
    });
    expect(res.status).to.equal(404);
    expect((await other.site.delete(`/api/v1/account/apps/${created.id}/icon`)).status).to.equal(404);
    expect(await db()('images').where({ app_id: created.id })).to.have.length(0);
  });

  it('removes the icon file with its app', async () => {
    const { site, account } = await signedInClient(app.client);
    const { app: created } = await appWithKey(account.id);
    const up = await site.request('POST', `/api/v1/account/apps/${created.id}/icon`, {
      raw: form(await square(64, '#654321')),
    });
    expect((await site.delete(`/api/v1/account/apps/${created.id}`)).status).to.equal(200);
    const key = new URL(up.body.data.icon_url).pathname.replace('/media/', '');
    expect(await media.get(key)).to.equal(null);
    expect(await db()('images').where({ app_id: created.id })).to.have.length(0);
    expect(await db()('orphaned_media')).to.have.length(0);
  });
});

describe('uploads when the worker cannot do its part', function () {
  this.timeout(60000);
  useCleanDatabase();

  it('answers 500 screening_unavailable when the model cannot load, accepting nothing', async () => {
    const media = testMedia();
    const app = await startTestApp({ media });
    const worker = await startImageWorker({
      media,
      images: new ImagePool(1, { model: '/nonexistent/screening-model', threshold: 0.7 }),
    });
    try {
      const { site, account } = await signedInClient(app.client);
      const res = await site.request('POST', '/api/v1/profile/layout/media', {
        raw: form(await square(64, '#ffffff')),
      });
      expect(res.status).to.equal(500);
      expect(res.body.error).to.include({ code: 'internal', reason: 'screening_unavailable' });
      expect(await db()('images').where({ account_id: account.id })).to.have.length(0);
    } finally {
      await worker.services.images.close();
      await worker.stop();
      await app.close();
    }
  });

  it('answers 500 upload_failed when the worker fails, and removes the staged file', async () => {
    const media = testMedia();
    const app = await startTestApp({ media });
    // An image thread that dies on every image, as a crash of the decoder would.
    const crashing = { process: () => Promise.reject(new Error('the image thread crashed')), close: async () => {} };
    const worker = await startImageWorker({ media, images: crashing as unknown as ImagePool });
    try {
      const { site } = await signedInClient(app.client);
      const res = await site.request('POST', '/api/v1/profile/layout/media', {
        raw: form(await square(64, '#ffffff')),
      });
      expect(res.status).to.equal(500);
      expect(res.body.error).to.include({ code: 'internal', reason: 'upload_failed' });
      expect(await db()('image_uploads')).to.have.length(0);
      expect(await db()('orphaned_media')).to.have.length(0);
    } finally {
      await worker.stop();
      await app.close();
    }
  });
});
