// The image upload allowances of the profile and account routes: layout images have the spec's own 30 per
// 10 minutes, and avatars, banners and app icons share another of the same size; neither spends the other.
import { expect } from 'chai';
import sharp from 'sharp';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import type { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

/** A form without the `image` field: refused (400) after the upload is counted, with no image work. */
function empty(): FormData {
  const data = new FormData();
  data.append('nothing', 'here');
  return data;
}

async function image(): Promise<FormData> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6f4e' } })
    .png()
    .toBuffer();
  const data = new FormData();
  data.append('image', new Blob([png], { type: 'image/png' }), 'image.png');
  return data;
}

const post = (site: SiteClient, path: string, form: FormData) => site.request('POST', `/api/v1${path}`, { raw: form });

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('image upload allowances (layout images apart from pictures and icons)', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  it('lets a layout image through after 30 avatar uploads, which use up the avatar, banner and icon allowance', async () => {
    const { site, account } = await signedInClient(app.client);
    const { app: owned } = await appWithKey(account.id);
    for (let i = 0; i < 30; i += 1) {
      const res = await post(site, '/profile/avatar', empty());
      expect(res.status, `avatar ${i + 1}: ${res.text}`).to.equal(400);
    }
    // Avatars keep their limit, and share it with banners and app icons.
    for (const path of ['/profile/avatar', '/profile/banner', `/account/apps/${owned.id}/icon`]) {
      const res = await post(site, path, empty());
      expect(res.status, path).to.equal(429);
      expect(res.body.error, path).to.include({ code: 'rate_limited', reason: 'too_many_uploads' });
    }
    const layout = await post(site, '/profile/layout/media', await image());
    expect(layout.status, layout.text).to.equal(201);
  });

  it('passes exactly 30 of 40 parallel layout uploads, and leaves the picture allowance whole', async () => {
    const { site } = await signedInClient(app.client);
    const statuses = (
      await Promise.all(Array.from({ length: 40 }, () => post(site, '/profile/layout/media', empty())))
    ).map((res) => res.status);
    // Past the limit the 429 comes before the form is read; under it, the missing field's 400.
    expect(tally(statuses)).to.deep.equal({ 400: 30, 429: 10 });
    const avatar = await post(site, '/profile/avatar', await image());
    expect(avatar.status, avatar.text).to.equal(201);
  });
});
