// GET /profiles/{username}/layout: what visitors (and the owner, as a visitor) see of a layout.
import { expect } from 'chai';
import { renameAccount } from '../../shared/accounts/usernames.js';
import { db } from '../../shared/platform/db/knex.js';
import { defaultLayout } from '../../shared/layout/default-layout.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { everyTypeLayout } from '../helpers/layouts.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';
import { namedPerson, type Visibility } from '../helpers/people.js';

async function layoutImage(accountId: string): Promise<string> {
  const [row] = await db()('images')
    .insert({
      account_id: accountId,
      purpose: 'layout',
      storage_key: `layout/${crypto.randomUUID()}.avif`,
      content_type: 'image/avif',
      width: 640,
      height: 480,
      bytes: 1000,
      animated: false,
    })
    .returning('id');
  return row.id;
}

function withBackground(ids: string[]) {
  const layout = everyTypeLayout() as any;
  const ref = (id: string) => ({ kind: 'media', id });
  layout.page.background = { media: ref(ids[0]), fit: 'cover', position: 'center', dim: 0, tone: 'auto' };
  // Further references sit on the sections' backgrounds.
  ids.slice(1).forEach((id, i) => {
    layout.sections[i].background = { media: ref(id), fit: 'cover', position: 'center', dim: 10, tone: 'auto' };
  });
  return layout;
}

describe('GET /profiles/{username}/layout', () => {
  useCleanDatabase();
  const app = useTestApp();

  const person = (username: string, visibility?: Visibility) => namedPerson(app.client, username, visibility);

  it('answers the default layout for someone who published nothing, to anyone', async () => {
    await person('plain_person');
    const res = await app.client.get('/api/v1/profiles/plain_person/layout');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ layout: defaultLayout(), customized: false, media: {} });
  });

  it('never shows the draft, even to its owner, and shows the published copy with only its own images', async () => {
    const owner = await person('layout_owner');
    const stranger = await person('layout_stranger');
    const [mine, unnamed] = [await layoutImage(owner.account.id), await layoutImage(owner.account.id)];
    const theirs = await layoutImage(stranger.account.id);
    const missing = '00000000-0000-4000-8000-0000000000ff';
    const layout = withBackground([mine, theirs, missing]);
    const saved = await owner.site.put('/api/v1/profile/layout', { layout, version: 0 });
    expect(saved.status, saved.text).to.equal(200);

    const draftOnly = await owner.site.get('/api/v1/profiles/layout_owner/layout');
    expect(draftOnly.body.data.customized).to.equal(false);

    await owner.site.post('/api/v1/profile/layout/publish', { version: 1 });
    const other = withBackground([unnamed]);
    await owner.site.put('/api/v1/profile/layout', { layout: other, version: 1 });

    const res = await app.client.get('/api/v1/profiles/layout_owner/layout');
    expect(res.body.data.customized).to.equal(true);
    expect(res.body.data.layout.page.background.media).to.deep.equal({ kind: 'media', id: mine });
    expect(Object.keys(res.body.data.media)).to.deep.equal([mine]);
    expect(res.body.data.media[mine]).to.deep.include({ width: 640, height: 480, animated: false });
    expect(res.body.data.media[mine].url).to.match(/\/media\/layout\/.+\.avif$/);
  });

  it('answers under an alias of the last 30 days, and 404 for an unknown name', async () => {
    const owner = await person('before_rename');
    // The waiting period between renames has passed.
    await db()('accounts')
      .where({ id: owner.account.id })
      .update({ username_changed_at: new Date(2020, 0, 1) });
    await renameAccount(db(), owner.account.id, 'after_rename');
    expect((await app.client.get('/api/v1/profiles/before_rename/layout')).status).to.equal(200);
    const unknown = await app.client.get('/api/v1/profiles/nobody_here/layout');
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
  });

  it('shows a private or followers-only profile’s layout as the default to others, and in full to its owner', async () => {
    const owner = await person('private_one');
    const visitor = new SiteClient(app.client);
    await owner.site.put('/api/v1/profile/layout', { layout: everyTypeLayout(), version: 0 });
    await owner.site.post('/api/v1/profile/layout/publish', { version: 1 });
    for (const visibility of ['PRIVATE', 'FOLLOWERS']) {
      await owner.site.patch('/api/v1/profile', { library_visibility: visibility });
      const seen = await visitor.get('/api/v1/profiles/private_one/layout');
      expect(seen.body.data, visibility).to.deep.equal({ layout: defaultLayout(), customized: false, media: {} });
      const own = await owner.site.get('/api/v1/profiles/private_one/layout');
      expect(own.body.data.customized, visibility).to.equal(true);
    }
  });

  it('needs profile.read of a key, and refuses a bad key even here', async () => {
    const owner = await person('keyed_reader');
    const { token: without } = await appWithKey(owner.account.id, ['library.read']);
    const { token: withScope } = await appWithKey(owner.account.id, ['profile.read']);
    const refused = await app.client.get('/api/v1/profiles/keyed_reader/layout', {
      headers: { authorization: `Bearer ${without}` },
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'profile.read' });
    const allowed = await app.client.get('/api/v1/profiles/keyed_reader/layout', {
      headers: { authorization: `Bearer ${withScope}` },
    });
    expect(allowed.status).to.equal(200);
    const bad = await app.client.get('/api/v1/profiles/keyed_reader/layout', {
      headers: { authorization: 'Bearer jgt_live_00000000000000000000000000000000' },
    });
    expect(bad.status).to.equal(401);
  });
});
