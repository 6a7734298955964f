// The social graph through its routes: follows and requests, blocks and their side effects, the owner's
// lists, and what a block or a follow changes in what a reader sees.
import { expect } from 'chai';
import { claimFirstUsername } from '../../shared/accounts/usernames.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { everyTypeLayout } from '../helpers/layouts.js';
import { useTestApp } from '../helpers/test-app.js';
import { namedPerson, type Visibility } from '../helpers/people.js';

describe('social (/social/*)', () => {
  useCleanDatabase();
  const app = useTestApp();

  const person = (username: string, visibility?: Visibility) => namedPerson(app.client, username, visibility);
  const usernames = (res: { body: { data: Array<{ username: string }> } }) => res.body.data.map((u) => u.username);

  it('follows a public account at once; repeating changes nothing; unfollowing undoes it', async () => {
    const ana = await person('ana_public');
    const bia = await person('bia_public');
    const first = await ana.site.put('/api/v1/social/following/bia_public');
    expect(first.status).to.equal(200);
    expect(first.body.data).to.deep.equal({ username: 'bia_public', following: true, requested: false });
    expect((await ana.site.put('/api/v1/social/following/bia_public')).body.data.following).to.equal(true);
    expect(await db()('follows').where({ follower_id: ana.account.id })).to.have.length(1);
    expect(usernames(await bia.site.get('/api/v1/social/followers'))).to.deep.equal(['ana_public']);
    expect(usernames(await ana.site.get('/api/v1/social/following'))).to.deep.equal(['bia_public']);
    const undone = await ana.site.delete('/api/v1/social/following/bia_public');
    expect(undone.body.data).to.deep.equal({ username: 'bia_public', following: false, requested: false });
    expect(await db()('follows').where({ follower_id: ana.account.id })).to.have.length(0);
  });

  it('asks a private account instead, which accepts or declines; withdrawing removes the request', async () => {
    const caio = await person('caio_asks');
    const dora = await person('dora_private', 'FOLLOWERS');
    const asked = await caio.site.put('/api/v1/social/following/dora_private');
    expect(asked.body.data).to.deep.equal({ username: 'dora_private', following: false, requested: true });
    expect(usernames(await dora.site.get('/api/v1/social/follow-requests'))).to.deep.equal(['caio_asks']);
    // Only the waiting side sees requests.
    expect((await caio.site.get('/api/v1/social/follow-requests')).body.data).to.deep.equal([]);

    await caio.site.delete('/api/v1/social/following/dora_private');
    expect((await dora.site.get('/api/v1/social/follow-requests')).body.data).to.deep.equal([]);
    const missing = await dora.site.put('/api/v1/social/follow-requests/caio_asks');
    expect(missing.status).to.equal(404);

    await caio.site.put('/api/v1/social/following/dora_private');
    const accepted = await dora.site.put('/api/v1/social/follow-requests/caio_asks');
    expect(accepted.body.data).to.deep.equal({ username: 'caio_asks', approved: true });
    const state = await caio.site.put('/api/v1/social/following/dora_private');
    expect(state.body.data).to.deep.include({ following: true, requested: false });
  });

  it('accepts and declines all requests at once, answering counts; all must be true', async () => {
    const owner = await person('popular_private', 'PRIVATE');
    for (const name of ['fan_one', 'fan_two', 'fan_three']) {
      await (await person(name)).site.put('/api/v1/social/following/popular_private');
    }
    for (const body of [{}, { all: false }, { all: 'yes' }]) {
      const refused = await owner.site.put('/api/v1/social/follow-requests', body);
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.include({ code: 'invalid_request', field: 'all' });
    }
    expect((await owner.site.delete('/api/v1/social/follow-requests')).status).to.equal(400);
    expect((await owner.site.put('/api/v1/social/follow-requests', { all: true })).body.data).to.deep.equal({
      approved: 3,
    });
    expect((await owner.site.get('/api/v1/social/followers')).body.page.total_items).to.equal(3);
    await (await person('fan_four')).site.put('/api/v1/social/following/popular_private');
    const declined = await owner.site.delete('/api/v1/social/follow-requests?all=true');
    expect(declined.body.data).to.deep.equal({ declined: 1 });
  });

  it('declines one request, and says so when none was waiting', async () => {
    const owner = await person('decliner', 'PRIVATE');
    const asker = await person('declined_one');
    await asker.site.put('/api/v1/social/following/decliner');
    expect((await owner.site.delete('/api/v1/social/follow-requests/declined_one')).body.data).to.deep.equal({
      username: 'declined_one',
      declined: true,
    });
    expect((await owner.site.delete('/api/v1/social/follow-requests/declined_one')).body.data.declined).to.equal(false);
    expect(await db()('follows').where({ followee_id: owner.account.id })).to.have.length(0);
  });

  it('blocks: follows both ways and requests go, unblocking restores nothing, the blocked cannot follow', async () => {
    const eva = await person('eva_blocks', 'PRIVATE');
    const fred = await person('fred_blocked');
    await eva.site.put('/api/v1/social/following/fred_blocked');
    await fred.site.put('/api/v1/social/following/eva_blocks');
    expect(await db()('follow_requests').where({ target_id: eva.account.id })).to.have.length(1);

    const blocked = await eva.site.put('/api/v1/social/blocks/fred_blocked');
    expect(blocked.body.data).to.deep.equal({ username: 'fred_blocked', blocked: true });
    expect((await eva.site.put('/api/v1/social/blocks/fred_blocked')).status).to.equal(200);
    expect(await db()('follows').whereIn('follower_id', [eva.account.id, fred.account.id])).to.have.length(0);
    expect(await db()('follow_requests').where({ target_id: eva.account.id })).to.have.length(0);
    expect(usernames(await eva.site.get('/api/v1/social/blocks'))).to.deep.equal(['fred_blocked']);
    // Never those made against the owner.
    expect((await fred.site.get('/api/v1/social/blocks')).body.data).to.deep.equal([]);

    // The blocked one cannot find eva at all; eva must unblock before following.
    expect((await fred.site.put('/api/v1/social/following/eva_blocks')).status).to.equal(404);
    const own = await eva.site.put('/api/v1/social/following/fred_blocked');
    expect(own.status).to.equal(409);
    expect(own.body.error.reason).to.equal('blocked');

    expect((await eva.site.delete('/api/v1/social/blocks/fred_blocked')).body.data.blocked).to.equal(false);
    expect(await db()('follows').whereIn('follower_id', [eva.account.id, fred.account.id])).to.have.length(0);
  });

  it('hides a profile from both sides of a block, and shows a followers-only one to followers', async () => {
    const gil = await person('gil_private', 'FOLLOWERS');
    const hana = await person('hana_follower');
    const ivo = await person('ivo_blocked');
    await gil.site.put('/api/v1/profile/layout', { layout: everyTypeLayout(), version: 0 });
    await gil.site.post('/api/v1/profile/layout/publish', { version: 1 });

    await hana.site.put('/api/v1/social/following/gil_private');
    expect((await hana.site.get('/api/v1/profiles/gil_private/layout')).body.data.customized).to.equal(false);
    await gil.site.put('/api/v1/social/follow-requests/hana_follower');
    expect((await hana.site.get('/api/v1/profiles/gil_private/layout')).body.data.customized).to.equal(true);

    await gil.site.put('/api/v1/social/blocks/ivo_blocked');
    expect((await ivo.site.get('/api/v1/profiles/gil_private/layout')).status).to.equal(404);
    expect((await gil.site.get('/api/v1/profiles/ivo_blocked/layout')).status).to.equal(404);
  });

  it('lists with q over username and display name, 50 a page, with has_more from the total', async () => {
    const star = await person('star_account');
    await star.site.patch('/api/v1/profile', { display_name: 'Estrela Cadente' });
    for (let i = 0; i < 52; i += 1) {
      const fan = await person(`follower_${String(i).padStart(2, '0')}`);
      if (i === 7) await fan.site.patch('/api/v1/profile', { display_name: 'Órion' });
      await fan.site.put('/api/v1/social/following/star_account');
    }
    const first = await star.site.get('/api/v1/social/followers');
    expect(first.body.data).to.have.length(50);
    expect(first.body.page).to.deep.equal({ number: 1, size: 50, total_items: 52, total_pages: 2, has_more: true });
    expect(first.body.data[0]).to.have.all.keys('username', 'display_name', 'avatar_url', 'since');
    expect((await star.site.get('/api/v1/social/followers?page=2')).body.data).to.have.length(2);
    expect(usernames(await star.site.get('/api/v1/social/followers?q=orion'))).to.deep.equal(['follower_07']);
    expect((await star.site.get('/api/v1/social/followers?q=follower_1')).body.page.total_items).to.equal(10);
    for (const query of ['page=0', 'page=1001', `q=${'x'.repeat(81)}`]) {
      const res = await star.site.get(`/api/v1/social/followers?${query}`);
      expect(res.status, query).to.equal(400);
    }
  });

  it('refuses oneself and unknown names, and follows an alias to the current name', async () => {
    const jo = await person('jo_self');
    const self = await jo.site.put('/api/v1/social/following/jo_self');
    expect(self.status).to.equal(400);
    expect((await jo.site.put('/api/v1/social/following/nobody_at_all')).status).to.equal(404);
    const kim = await person('kim_before');
    await db()('accounts')
      .where({ id: kim.account.id })
      .update({ username_changed_at: new Date(2020, 0, 1) });
    const renamed = await kim.site.patch('/api/v1/account/username', { username: 'kim_after' });
    expect(renamed.status, renamed.text).to.equal(200);
    const followed = await jo.site.put('/api/v1/social/following/kim_before');
    expect(followed.body.data.username).to.equal('kim_after');
  });

  it('needs social.read to read and profile.write to change with a key', async () => {
    const lu = await person('lu_keys');
    await person('mo_target');
    const { token: reader } = await appWithKey(lu.account.id, ['social.read']);
    const { token: writer } = await appWithKey(lu.account.id, ['profile.write']);
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    expect((await app.client.get('/api/v1/social/following', as(reader))).status).to.equal(200);
    const noWrite = await app.client.put('/api/v1/social/following/mo_target', undefined, as(reader));
    expect(noWrite.status).to.equal(403);
    expect(noWrite.body.error).to.include({ code: 'insufficient_scope', scope: 'profile.write' });
    expect((await app.client.put('/api/v1/social/following/mo_target', undefined, as(writer))).status).to.equal(200);
    const noRead = await app.client.get('/api/v1/social/followers', as(writer));
    expect(noRead.body.error).to.include({ scope: 'social.read' });
    expect((await app.client.get('/api/v1/social/followers')).status).to.equal(401);
  });

  it('asks a session owing its second factor to pass it before accepting requests', async () => {
    const owner = await signedInClient(app.client, { twoFactor: true });
    await db().transaction((trx) => claimFirstUsername(trx, owner.account.id, 'mfa_owner'));
    const res = await owner.site.put('/api/v1/social/follow-requests', { all: true });
    expect(res.status).to.equal(403);
    expect(res.body.error.reason).to.equal('mfa_required');
  });
});
