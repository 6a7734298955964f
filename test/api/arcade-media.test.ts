// Store-page images (spec arcade.md: Store page slots, POST/DELETE /account/apps/{id}/arcade/media): real
// images through sharp and the real image.process handler in this process, the slots as the developer and
// players see them, and the refusals in the order the route meets them.
import { expect } from 'chai';
import sharp from 'sharp';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseColumns, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { animatedGif } from '../helpers/images.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { reason?: string; detail?: unknown } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason, res.body.error?.detail];

async function square(size: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** The upload form; an undefined kind or position leaves that field out, `field` names the file's. */
function slotForm(kind: string | undefined, position: string | undefined, bytes?: Buffer, field = 'file'): FormData {
  const data = new FormData();
  if (kind !== undefined) data.append('kind', kind);
  if (position !== undefined) data.append('position', position);
  if (bytes) data.append(field, new Blob([bytes], { type: 'image/png' }), 'image.png');
  return data;
}

describe('Arcade: store-page images', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);
  let icon: Buffer;

  before(async () => {
    icon = await square(900, '#336699');
  });

  async function game(slug: string) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const upload = (kind: string | undefined, position: string | undefined, bytes: Buffer = icon) =>
      dev.site.request('POST', `${base}/media`, { raw: slotForm(kind, position, bytes) });
    const clear = (kind: string, position: string) =>
      dev.site.delete(`${base}/media?kind=${encodeURIComponent(kind)}&position=${encodeURIComponent(position)}`);
    const draft = async () => (await dev.site.get(base)).body.data.app.listing.draft;
    return { dev, base, upload, clear, draft };
  }

  const keyOf = (url: string) => new URL(url).pathname.replace('/media/', '');
  /** Whether the file is stored; the opened stream is closed at once. */
  const stored = async (key: string) => {
    const object = await media.get(key);
    object?.body.destroy();
    return object !== null;
  };
  const uploadsCounted = async (appId: string) =>
    ((
      await db()('rate_limits')
        .where({ key: `attempt:arcade-media:${appId}` })
        .first('points')
    )?.points as number) ?? 0;

  it('puts a square PNG in the icon slot under the avatar rules and shows it in the draft', async () => {
    const { dev, upload, draft } = await game('media-icon');
    const res = await upload('icon', '0');
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data).to.include({ kind: 'icon', position: 0 });
    const row = await db()('images').where({ app_id: dev.app.id }).first();
    expect(row).to.include({ purpose: 'arcade_icon', account_id: dev.account.id, width: 512, height: 512 });
    expect(res.body.data.image_url).to.equal(media.url(row.storage_key));
    expect(row.storage_key).to.match(/^arcade\/icons\/.+\.avif$/);
    expect(await stored(row.storage_key)).to.equal(true);
    expect(await draft()).to.deep.include({ icon_url: res.body.data.image_url, tile_url: null, screenshots: [] });
  });

  it('keeps an animated GIF icon or tile animated, as WebP', async () => {
    const { upload, draft } = await game('media-animated');
    const gif = await animatedGif({ frames: 4, delay: 100, width: 64, height: 64 });
    for (const kind of ['icon', 'tile']) {
      const res = await upload(kind, '0', gif);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.image_url).to.match(/\.webp$/);
    }
    expect(await db()('images').where({ purpose: 'arcade_tile' }).first('animated')).to.deep.equal({ animated: true });
    expect((await draft()).tile_url).to.match(/\.webp$/);
  });

  it('refuses an animated cover with media_invalid and the pipeline’s reason, counting the upload', async () => {
    const { dev, upload, draft } = await game('media-cover');
    const res = await upload('cover', '0', await animatedGif({ frames: 3, delay: 100 }));
    expect(refusal(res)).to.deep.equal([400, 'media_invalid', 'unsupported_animation']);
    expect(res.body.error.message).to.match(/still image/);
    expect(await db()('images').where({ app_id: dev.app.id })).to.have.length(0);
    expect(await uploadsCounted(dev.app.id)).to.equal(1);
    const still = await upload('cover', '0', await square(300, '#aa5500'));
    expect(still.status, still.text).to.equal(201);
    expect(await db()('images').where({ app_id: dev.app.id }).first('purpose')).to.deep.equal({
      purpose: 'arcade_cover',
    });
    expect((await draft()).cover_url).to.equal(still.body.data.image_url);
  });

  it('refuses what is not an image, and a file over 15 MB, with media_invalid', async () => {
    const { upload } = await game('media-junk');
    expect(refusal(await upload('tile', '0', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')))).to.deep.equal([
      400,
      'media_invalid',
      'invalid_format',
    ]);
    const big = await upload('tile', '0', Buffer.alloc(15 * 1024 * 1024 + 1, 1));
    expect(refusal(big)).to.deep.equal([400, 'media_invalid', 'too_large']);
  });

  it('judges kind and position first, naming the one to fix, without counting an upload', async () => {
    const { dev, base, upload, clear } = await game('media-fields');
    const cases: Array<[string | undefined, string | undefined, string]> = [
      [undefined, '0', 'kind'],
      ['banner', '0', 'kind'],
      ['ICON', '0', 'kind'],
      ['icon', undefined, 'position'],
      ['icon', '1', 'position'],
      ['cover', '2', 'position'],
      ['screenshot', '6', 'position'],
      ['screenshot', '-1', 'position'],
      ['screenshot', '01', 'position'],
      ['screenshot', 'one', 'position'],
    ];
    for (const [kind, position, detail] of cases) {
      expect(refusal(await upload(kind, position)), `${kind} ${position}`).to.deep.equal([
        400,
        'media_invalid',
        detail,
      ]);
      if (kind !== undefined && position !== undefined) {
        expect(refusal(await clear(kind, position)), `DELETE ${kind} ${position}`).to.deep.equal([
          400,
          'media_invalid',
          detail,
        ]);
      }
    }
    const twice = slotForm('icon', '0', icon);
    twice.append('kind', 'tile');
    expect(refusal(await dev.site.request('POST', `${base}/media`, { raw: twice }))).to.deep.equal([
      400,
      'media_invalid',
      'kind',
    ]);
    const noFile = await dev.site.request('POST', `${base}/media`, { raw: slotForm('icon', '0', icon, 'image') });
    expect(refusal(noFile)).to.deep.equal([400, 'media_invalid', 'file']);
    expect(refusal(await dev.site.delete(`${base}/media?kind=icon`))).to.deep.equal([400, 'media_invalid', 'position']);
    expect(refusal(await dev.site.post(`${base}/media`, { kind: 'icon', position: 0 }))).to.deep.equal([
      400,
      'unsupported_content_type',
      undefined,
    ]);
    expect(await uploadsCounted(dev.app.id)).to.equal(0);
  });

  it('fills screenshot positions 0 to 5 and shows them in position order', async () => {
    const { upload, draft } = await game('media-shots');
    const urls: string[] = [];
    for (const position of [3, 0, 5, 1, 4, 2]) {
      const res = await upload(
        'screenshot',
        String(position),
        await square(40, `#${position}0${position}0${position}0`),
      );
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({ kind: 'screenshot', position });
      urls[position] = res.body.data.image_url;
    }
    expect((await draft()).screenshots).to.deep.equal(urls);
    expect(refusal(await upload('screenshot', '6'))).to.deep.equal([400, 'media_invalid', 'position']);
  });

  it('answers 404 for another account’s app or an app without a game, and 403 to keys and unfinished two-factor', async () => {
    const { dev, base, upload } = await game('media-owner');
    const other = await arcadeDeveloper(app.client);
    const form = () => ({ raw: slotForm('icon', '0', icon) });
    expect(refusal(await other.site.request('POST', `${base}/media`, form()))).to.deep.equal([
      404,
      'app_not_found',
      undefined,
    ]);
    expect(refusal(await other.site.delete(`${base}/media?kind=icon&position=0`))[1]).to.equal('app_not_found');
    const noGame = `/api/v1/account/apps/${other.app.id}/arcade/media`;
    expect(refusal(await other.site.request('POST', noGame, form()))[1]).to.equal('app_not_found');
    const { token } = await appWithKey(dev.account.id, []);
    const keyed = await app.client.request('POST', `${base}/media`, {
      ...form(),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(keyed.status).to.equal(403);
    const owing = await arcadeDeveloper(app.client, { passTwoFactor: false });
    await seededGame(owing.account.id, owing.app.id, 'media-owing');
    const res = await owing.site.request('POST', `/api/v1/account/apps/${owing.app.id}/arcade/media`, form());
    expect(refusal(res)).to.deep.equal([403, 'mfa_required', undefined]);
    expect(await db()('images').where({ account_id: dev.account.id })).to.have.length(0);
    expect((await upload('icon', '0')).status).to.equal(201);
  });

  it('answers 403 publisher_blocked to a blocked account, for upload and delete', async () => {
    const { dev, upload, clear } = await game('media-blocked');
    await db()('publisher_blocks').insert({ account_id: dev.account.id });
    expect(refusal(await upload('icon', '0'))).to.deep.equal([403, 'publisher_blocked', undefined]);
    expect(refusal(await clear('icon', '0'))).to.deep.equal([403, 'publisher_blocked', undefined]);
    expect(await uploadsCounted(dev.app.id)).to.equal(0);
  });

  it('answers 409 listing_locked once the store page is submitted, before counting an upload', async () => {
    const { dev, base, upload, clear } = await game('media-locked');
    expect((await upload('icon', '0')).status).to.equal(201);
    expect((await dev.site.put(`${base}/listing`, listingBody())).status).to.equal(200);
    const submitted = await dev.site.post(`${base}/listing/submit`);
    expect(submitted.status, submitted.text).to.equal(200);
    expect(refusal(await upload('tile', '0'))).to.deep.equal([409, 'listing_locked', undefined]);
    expect(refusal(await clear('icon', '0'))).to.deep.equal([409, 'listing_locked', undefined]);
    expect(refusal(await clear('tile', '0'))).to.deep.equal([409, 'listing_locked', undefined]);
    expect(await uploadsCounted(dev.app.id)).to.equal(1);
    expect(await db()('images').where({ app_id: dev.app.id })).to.have.length(1);
  });

  it('deletes a replaced or cleared image unless another revision still names it', async () => {
    const { dev, base, upload, clear, draft } = await game('media-replace');
    const moderator = await staffMember(app.client, 'mod_media');
    const first = (await upload('icon', '0')).body.data.image_url as string;
    const tile = (await upload('tile', '0')).body.data.image_url as string;
    // Replacing in the draft alone: the old tile is gone at once, row and file.
    const tile2 = (await upload('tile', '0', await square(64, '#00ff00'))).body.data.image_url as string;
    expect(await db()('images').where({ storage_key: keyOf(tile) })).to.have.length(0);
    expect(await stored(keyOf(tile))).to.equal(false);

    await dev.site.put(`${base}/listing`, listingBody());
    await dev.site.post(`${base}/listing/submit`);
    const [pending] = await db()('arcade_listings').where({ app_id: dev.app.id, status: 'submitted' });
    const approved = await moderator.site.post(`/api/v1/moderation/arcade/listings/${pending.id}`, {
      decision: 'approve',
    });
    expect(approved.status, approved.text).to.equal(200);

    // A new draft starts from the approved revision: replacing its icon keeps the approved one's.
    const second = (await upload('icon', '0', await square(64, '#ff0000'))).body.data.image_url as string;
    expect(await db()('images').where({ storage_key: keyOf(first) })).to.have.length(1);
    const third = (await upload('icon', '0', await square(64, '#0000ff'))).body.data.image_url as string;
    expect(await db()('images').where({ storage_key: keyOf(second) })).to.have.length(0);
    expect(await stored(keyOf(second))).to.equal(false);
    expect((await clear('icon', '0')).body).to.deep.equal({ data: { kind: 'icon', position: 0, image_url: null } });
    expect(await db()('images').where({ storage_key: keyOf(third) })).to.have.length(0);
    expect(await stored(keyOf(first))).to.equal(true);

    const listing = (await dev.site.get(base)).body.data.app.listing;
    expect([listing.approved.icon_url, listing.approved.tile_url]).to.deep.equal([first, tile2]);
    expect([listing.draft.icon_url, listing.draft.tile_url]).to.deep.equal([null, tile2]);
    expect(await draft()).to.include({ number: 2 });
  });

  it('answers a cleared slot also when it was empty, without making a draft for it', async () => {
    const { dev, clear } = await game('media-empty');
    const res = await clear('screenshot', '4');
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ data: { kind: 'screenshot', position: 4, image_url: null } });
    expect(await db()('arcade_listings').where({ app_id: dev.app.id })).to.have.length(0);
  });

  it('shows the images on the public store page and in the directory once approved and live', async () => {
    const { dev, base, upload } = await game('media-public');
    const moderator = await staffMember(app.client, 'mod_public');
    const url = async (kind: string, position: string, colour: string) =>
      (await upload(kind, position, await square(80, colour))).body.data.image_url as string;
    const shown = {
      icon_url: await url('icon', '0', '#110000'),
      tile_url: await url('tile', '0', '#001100'),
      cover_url: await url('cover', '0', '#000011'),
      screenshots: [await url('screenshot', '2', '#222222'), await url('screenshot', '5', '#555555')],
    };
    await dev.site.put(`${base}/listing`, listingBody({ name: 'Public Rocks' }));
    await dev.site.post(`${base}/listing/submit`);
    const [pending] = await db()('arcade_listings').where({ app_id: dev.app.id, status: 'submitted' });
    await moderator.site.post(`/api/v1/moderation/arcade/listings/${pending.id}`, { decision: 'approve' });
    // A live release straight in the database: how it gets there is the journey test's business.
    const [release] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 1, status: 'approved', approved_at: new Date(), ...releaseColumns() })
      .returning('id');
    await db()('arcade_apps').where({ app_id: dev.app.id }).update({ live_release_id: release.id });

    const page = await app.client.get('/api/v1/arcade/apps/media-public');
    expect(page.status, page.text).to.equal(200);
    expect(page.body.data).to.deep.include({ name: 'Public Rocks', ...shown });
    const directory = await app.client.get('/api/v1/arcade/apps');
    const item = directory.body.data.find((entry: { slug: string }) => entry.slug === 'media-public');
    expect(item).to.deep.include({ icon_url: shown.icon_url, tile_url: shown.tile_url });
  });

  it('is not held to the layout image quota', async () => {
    const { dev, upload } = await game('media-quota');
    await db()('images').insert(
      Array.from({ length: 15 }, (_, i) => ({
        account_id: dev.account.id,
        purpose: 'layout',
        storage_key: `layout/quota-${i}.avif`,
        content_type: 'image/avif',
        width: 10,
        height: 10,
        bytes: 1_000_000,
        animated: false,
      })),
    );
    expect((await upload('screenshot', '0')).status).to.equal(201);
  });

  it('allows 30 uploads a day per app, then 429 with retry_after, storing nothing', async () => {
    const { dev, upload } = await game('media-busy');
    await db()('rate_limits').insert({
      key: `attempt:arcade-media:${dev.app.id}`,
      points: 30,
      expire: Date.now() + 3_600_000,
    });
    const res = await upload('icon', '0');
    expect(refusal(res)).to.deep.equal([429, 'rate_limited', undefined]);
    expect(res.body.error.retry_after).to.be.a('number');
    expect(await db()('images').where({ app_id: dev.app.id })).to.have.length(0);
    // Another app of the same developer has its own allowance.
    const other = await game('media-busy-other');
    expect((await other.upload('icon', '0')).status).to.equal(201);
  });
});
