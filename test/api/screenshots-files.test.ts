// A deleted capture's files (DECISIONS: Screenshots): the row goes at once, the files stay until media.cleanup
// finds no layout of the author naming the capture, whoever deleted it (DELETE /screenshots/{id}, DELETE
// /account/data?category=screenshots, the account's own deletion). And the export holds uploaded captures.
import { expect } from 'chai';
import { cleanMediaNow } from '../../shared/media/media-cleanup.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { uploadCapture } from '../helpers/captures.js';
import { PASSWORD, signedInClient } from '../helpers/factories.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { everyTypeLayout } from '../helpers/layouts.js';
import { catalogGame } from '../helpers/people.js';
import type { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const MEDIA = 'http://localhost:3000/media/';

describe('the files of deleted captures', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  let gameId = '';
  before(async () => {
    gameId = String((await catalogGame()).id);
  });

  /** A capture of `site`'s account, with the storage keys of its two files. */
  async function capture(site: SiteClient, description = '') {
    const res = await uploadCapture(site, { game_id: gameId, description });
    expect(res.status, res.text).to.equal(201);
    const { id, image_url: image, thumbnail_url: thumbnail } = res.body.data;
    return { id: id as string, keys: [image.slice(MEDIA.length), thumbnail.slice(MEDIA.length)] as string[] };
  }
  async function stored(key: string): Promise<boolean> {
    const object = await media.get(key);
    object?.body.destroy();
    return object !== null;
  }
  const allStored = async (keys: string[]) => (await Promise.all(keys.map(stored))).every(Boolean);
  const noneStored = async (keys: string[]) => !(await Promise.all(keys.map(stored))).some(Boolean);
  /** A layout naming the capture in its image block. */
  function naming(captureId: string) {
    const layout = everyTypeLayout();
    layout.sections[0].columns[1].blocks[0].config.source = { kind: 'screenshot', id: captureId };
    return layout;
  }

  it('keeps the files of a deleted capture until the cleanup, then removes both', async () => {
    const { site } = await signedInClient(app.client);
    const { id, keys } = await capture(site);
    expect((await site.delete(`/api/v1/screenshots/${id}`)).status).to.equal(200);
    expect(await allStored(keys)).to.equal(true);
    expect((await db()('deleted_capture_files').whereIn('storage_key', keys)).length).to.equal(2);
    const report = await cleanMediaNow(db(), media);
    expect(report.orphaned_objects).to.be.at.least(2);
    expect(await noneStored(keys)).to.equal(true);
    expect(await db()('deleted_capture_files')).to.have.length(0);
    expect(await db()('orphaned_media')).to.have.length(0);
  });

  it('never removes them while a layout of the author names the capture, in its draft or its published copy', async () => {
    const { site } = await signedInClient(app.client);
    const inDraft = await capture(site, 'in the draft');
    const inPublished = await capture(site, 'in the published layout');
    expect((await site.put('/api/v1/profile/layout', { layout: naming(inPublished.id), version: 0 })).status).to.equal(
      200,
    );
    expect((await site.post('/api/v1/profile/layout/publish', { version: 1 })).status).to.equal(200);
    expect((await site.put('/api/v1/profile/layout', { layout: naming(inDraft.id), version: 1 })).status).to.equal(200);
    for (const { id } of [inDraft, inPublished])
      expect((await site.delete(`/api/v1/screenshots/${id}`)).status).to.equal(200);

    await cleanMediaNow(db(), media);
    expect(await allStored([...inDraft.keys, ...inPublished.keys])).to.equal(true);

    // The draft moves on; the published copy still names its capture.
    const other = naming('someone_else');
    expect((await site.put('/api/v1/profile/layout', { layout: other, version: 2 })).status).to.equal(200);
    await cleanMediaNow(db(), media);
    expect(await noneStored(inDraft.keys)).to.equal(true);
    expect(await allStored(inPublished.keys)).to.equal(true);

    expect((await site.post('/api/v1/profile/layout/publish', { version: 3 })).status).to.equal(200);
    await cleanMediaNow(db(), media);
    expect(await noneStored(inPublished.keys)).to.equal(true);
    expect(await db()('deleted_capture_files')).to.have.length(0);
  });

  it('does not keep them for another person’s layout, which draws nothing of a capture not theirs', async () => {
    const owner = await signedInClient(app.client);
    const other = await signedInClient(app.client);
    const { id, keys } = await capture(owner.site);
    expect((await other.site.put('/api/v1/profile/layout', { layout: naming(id), version: 0 })).status).to.equal(200);
    await owner.site.delete(`/api/v1/screenshots/${id}`);
    await cleanMediaNow(db(), media);
    expect(await noneStored(keys)).to.equal(true);
  });

  it('exports uploaded captures, and DELETE /account/data?category=screenshots removes them and, at cleanup, their files', async () => {
    const { site, account } = await signedInClient(app.client);
    const first = await capture(site, 'first of two');
    const second = await capture(site, 'second of two');
    const exported = JSON.parse((await site.get('/api/v1/account/export')).text).data;
    expect(exported.screenshots.map((s: { public_id: string }) => s.public_id).sort()).to.deep.equal(
      [first.id, second.id].sort(),
    );
    expect(exported.screenshots.find((s: { public_id: string }) => s.public_id === first.id)).to.include({
      description: 'first of two',
      game_id: Number(gameId),
      visibility: 'PUBLIC',
    });

    const res = await site.delete('/api/v1/account/data?category=screenshots', { body: { password: PASSWORD } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.removed).to.include({ screenshots: 2, activity_items: 2 });
    expect(await db()('screenshots').where({ account_id: account.id })).to.have.length(0);
    expect(await allStored([...first.keys, ...second.keys])).to.equal(true);
    await cleanMediaNow(db(), media);
    expect(await noneStored([...first.keys, ...second.keys])).to.equal(true);
  });

  it('removes the files of a deleted account’s captures at the next cleanup', async () => {
    const { site, account } = await signedInClient(app.client);
    const { keys } = await capture(site);
    expect((await site.put('/api/v1/profile/layout', { layout: naming('any'), version: 0 })).status).to.equal(200);
    await db()('accounts').where({ id: account.id }).delete();
    expect(await db()('deleted_capture_files').whereIn('storage_key', keys)).to.have.length(2);
    await cleanMediaNow(db(), media);
    expect(await noneStored(keys)).to.equal(true);
  });
});
