// The owner's profile layout: versions, conflicts, publishing, reset, concurrent saves, and stored
// documents this build cannot fully read.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { everyTypeLayout } from '../helpers/layouts.js';
import { useTestApp } from '../helpers/test-app.js';

describe('profile layout', () => {
  useCleanDatabase();
  const app = useTestApp();

  function titled(text: string) {
    const doc = everyTypeLayout();
    doc.sections[0].columns[1].blocks[2].config.text = text;
    return doc;
  }

  it('answers the default, version 0, before anything is saved', async () => {
    const { site } = await signedInClient(app.client);
    const res = await site.get('/api/v1/profile/layout');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({
      version: 0,
      published: null,
      published_version: null,
      published_at: null,
      updated_at: null,
      customized: false,
      draft_incomplete: false,
    });
    expect(res.body.data.draft.sections[0].columns[0].blocks[0].type).to.equal('identity');
    expect(res.body.data.media).to.deep.equal({});
  });

  it('saves from version 0, bumps the version on change and keeps it for an identical draft', async () => {
    const { site } = await signedInClient(app.client);
    const first = await site.put('/api/v1/profile/layout', { layout: titled('One'), version: 0 });
    expect(first.status).to.equal(200);
    expect(first.body.data.version).to.equal(1);
    expect(
      (await site.put('/api/v1/profile/layout', { layout: titled('One'), version: 1 })).body.data.version,
    ).to.equal(1);
    expect(
      (await site.put('/api/v1/profile/layout', { layout: titled('Two'), version: 1 })).body.data.version,
    ).to.equal(2);
    const read = await site.get('/api/v1/profile/layout');
    expect(read.body.data).to.include({ version: 2, customized: true, published: null });
    expect(read.body.data.draft.sections[0].columns[1].blocks[2].config.text).to.equal('Two');
  });

  it('answers 409 with the current version when another save came in between', async () => {
    const { site } = await signedInClient(app.client);
    await site.put('/api/v1/profile/layout', { layout: titled('A'), version: 0 });
    await site.put('/api/v1/profile/layout', { layout: titled('B'), version: 1 });
    const stale = await site.put('/api/v1/profile/layout', { layout: titled('C'), version: 1 });
    expect(stale.status).to.equal(409);
    expect(stale.body.error).to.include({ code: 'conflict', version: 2 });
    const fresh = await site.put('/api/v1/profile/layout', { layout: titled('C'), version: 0 });
    expect(fresh.status).to.equal(409);
    expect(fresh.body.error.version).to.equal(2);
  });

  it('lets exactly one of ten simultaneous saves of the same version win', async () => {
    const { site } = await signedInClient(app.client);
    await site.put('/api/v1/profile/layout', { layout: titled('base'), version: 0 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        site.put('/api/v1/profile/layout', { layout: titled(`racer ${i}`), version: 1 }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).to.have.length(1);
    expect(answers.filter((r) => r.status === 409)).to.have.length(9);
    expect((await site.get('/api/v1/profile/layout')).body.data.version).to.equal(2);
  });

  it('refuses an invalid document with 400 and its issues (20 at most)', async () => {
    const { site } = await signedInClient(app.client);
    const doc = everyTypeLayout();
    for (const column of doc.sections[0].columns) for (const block of column.blocks) block.visibility = 'everywhere';
    const res = await site.put('/api/v1/profile/layout', { layout: doc, version: 0 });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('invalid_request');
    expect(res.body.error.issues).to.have.length.within(1, 20);
    expect(res.body.error.issues[0]).to.include.keys('code', 'message', 'path');
    const missing = await site.put('/api/v1/profile/layout', { layout: everyTypeLayout() });
    expect(missing.body.error).to.deep.include({ field: 'version', reason: 'missing' });
    const notObject = await site.put('/api/v1/profile/layout', { layout: 'sections', version: 0 });
    expect(notObject.body.error).to.deep.include({ field: 'layout', reason: 'wrong_type' });
    const negative = await site.put('/api/v1/profile/layout', { layout: everyTypeLayout(), version: -1 });
    expect(negative.body.error).to.deep.include({ field: 'version', reason: 'out_of_range' });
  });

  it('stores without the removed colour keys, and never answers them', async () => {
    const { site } = await signedInClient(app.client);
    const doc = everyTypeLayout();
    doc.page.background.color = '#000000';
    doc.sections[0].columns[0].blocks[0].style.textColor = '#ffffff';
    expect((await site.put('/api/v1/profile/layout', { layout: doc, version: 0 })).status).to.equal(200);
    const read = await site.get('/api/v1/profile/layout');
    expect(read.text).not.to.match(/"color"|"textColor"/);
  });

  describe('publishing', () => {
    it('publishes the draft of a version; later drafts leave the published copy alone', async () => {
      const { site } = await signedInClient(app.client);
      await site.put('/api/v1/profile/layout', { layout: titled('Live'), version: 0 });
      const published = await site.post('/api/v1/profile/layout/publish', { version: 1 });
      expect(published.status).to.equal(200);
      expect(published.body.data.version).to.equal(1);
      expect(new Date(published.body.data.published_at).getTime()).to.be.closeTo(Date.now(), 60000);
      await site.put('/api/v1/profile/layout', { layout: titled('Next'), version: 1 });
      const read = (await site.get('/api/v1/profile/layout')).body.data;
      expect(read).to.include({ version: 2, published_version: 1 });
      expect(read.published.sections[0].columns[1].blocks[2].config.text).to.equal('Live');
      expect(read.draft.sections[0].columns[1].blocks[2].config.text).to.equal('Next');
    });

    it('answers 404 with nothing saved and 409 with the current version when the draft changed', async () => {
      const { site } = await signedInClient(app.client);
      const nothing = await site.post('/api/v1/profile/layout/publish', { version: 1 });
      expect(nothing.status).to.equal(404);
      expect(nothing.body.error.code).to.equal('not_found');
      await site.put('/api/v1/profile/layout', { layout: titled('x'), version: 0 });
      await site.put('/api/v1/profile/layout', { layout: titled('y'), version: 1 });
      const stale = await site.post('/api/v1/profile/layout/publish', { version: 1 });
      expect(stale.status).to.equal(409);
      expect(stale.body.error.version).to.equal(2);
      expect((await site.post('/api/v1/profile/layout/publish', { version: 0 })).body.error).to.deep.include({
        field: 'version',
        reason: 'out_of_range',
      });
    });

    it('publishes what was saved under the version it names, even racing a save', async () => {
      const { site, account } = await signedInClient(app.client);
      await site.put('/api/v1/profile/layout', { layout: titled('first'), version: 0 });
      for (let round = 0; round < 5; round += 1) {
        const version = (await site.get('/api/v1/profile/layout')).body.data.version;
        const [save, publish] = await Promise.all([
          site.put('/api/v1/profile/layout', { layout: titled(`save ${round}`), version }),
          site.post('/api/v1/profile/layout/publish', { version }),
        ]);
        expect(save.status).to.equal(200);
        expect([200, 409]).to.include(publish.status);
        const row = await db()('profile_layouts').where({ account_id: account.id }).first();
        if (publish.status === 200) expect(row.published_version).to.equal(version);
        expect(row.published_version ?? 0).to.be.at.most(row.version);
      }
    });
  });

  it('resets to the default for everyone, repeatably, and the next save names version 0', async () => {
    const { site } = await signedInClient(app.client);
    await site.put('/api/v1/profile/layout', { layout: titled('gone soon'), version: 0 });
    await site.post('/api/v1/profile/layout/publish', { version: 1 });
    for (let i = 0; i < 2; i += 1) {
      const reset = await site.delete('/api/v1/profile/layout');
      expect(reset.status).to.equal(200);
      expect(reset.body.data).to.deep.equal({ reset: true });
    }
    expect((await site.get('/api/v1/profile/layout')).body.data).to.include({
      version: 0,
      customized: false,
      published: null,
    });
    expect(
      (await site.put('/api/v1/profile/layout', { layout: titled('again'), version: 0 })).body.data.version,
    ).to.equal(1);
  });

  describe('stored documents this build cannot fully read', () => {
    it('come back without the unknown parts, flagged draft_incomplete; saving over them works', async () => {
      const { site, account } = await signedInClient(app.client);
      const doc = everyTypeLayout();
      doc.sections[0].columns[1].blocks.push({
        id: 'future',
        type: 'hologram',
        visibility: { mobile: true, tablet: true, desktop: true },
        config: {},
      });
      await db()('profile_layouts').insert({ account_id: account.id, draft: JSON.stringify(doc), version: 7 });
      const read = (await site.get('/api/v1/profile/layout')).body.data;
      expect(read).to.include({ version: 7, draft_incomplete: true });
      expect(JSON.stringify(read.draft)).not.to.include('hologram');
      expect(read.draft.sections[0].columns[1].blocks).to.have.length(5);
      expect((await site.put('/api/v1/profile/layout', { layout: read.draft, version: 7 })).body.data.version).to.equal(
        8,
      );
      expect((await site.get('/api/v1/profile/layout')).body.data.draft_incomplete).to.equal(false);
    });

    it('read as the default under their real version when nothing can be read', async () => {
      const { site, account } = await signedInClient(app.client);
      await db()('profile_layouts').insert({
        account_id: account.id,
        draft: JSON.stringify({ schema: 9, whatever: true }),
        version: 4,
      });
      const read = (await site.get('/api/v1/profile/layout')).body.data;
      expect(read).to.include({ version: 4, draft_incomplete: true });
      expect(read.draft.sections[0].columns[0].blocks[0].type).to.equal('identity');
      expect((await site.put('/api/v1/profile/layout', { layout: titled('fixed'), version: 4 })).status).to.equal(200);
    });
  });

  it('needs profile.read to read and profile.write to save with a key; another account sees only its own', async () => {
    const owner = await signedInClient(app.client);
    await owner.site.put('/api/v1/profile/layout', { layout: titled('private draft'), version: 0 });
    const { token } = await appWithKey(owner.account.id, ['profile.read']);
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.client.get('/api/v1/profile/layout', { headers })).body.data.version).to.equal(1);
    const denied = await app.client.put('/api/v1/profile/layout', { layout: titled('x'), version: 1 }, { headers });
    expect(denied.status).to.equal(403);
    expect(denied.body.error.scope).to.equal('profile.write');
    const stranger = await signedInClient(app.client);
    const theirs = (await stranger.site.get('/api/v1/profile/layout')).body.data;
    expect(theirs.version).to.equal(0);
    expect(JSON.stringify(theirs)).not.to.include('private draft');
  });
});
