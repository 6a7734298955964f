// GET /profiles/{username}/social: counts, the reader's relationship, the conversation as the reader may
// see it, and the reader's own wallet.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { CONVERSATION_SIZE } from '../../shared/people/profile-social.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { block, comment, follow, namedPerson, type Visibility } from '../helpers/people.js';
import type { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /profiles/{username}/social', () => {
  useCleanDatabase();
  const app = useTestApp();

  const person = (username: string, visibility?: Visibility) => namedPerson(app.client, username, visibility);
  const social = (name: string, reader?: { site: SiteClient }) =>
    reader ? reader.site.get(`/api/v1/profiles/${name}/social`) : app.client.get(`/api/v1/profiles/${name}/social`);

  it('answers counts and the conversation to anyone, with no relationship and no wallet for anonymous', async () => {
    const owner = await person('talk_owner');
    const fan = await person('talk_fan');
    const other = await person('talk_other');
    await follow(fan.account.id, owner.account.id);
    await follow(owner.account.id, other.account.id);
    await comment(fan.account.id, owner.account.id, { body: 'first', created_at: new Date(Date.now() - 60_000) });
    await comment(other.account.id, owner.account.id, { body: 'second' });
    // A comment on someone else's profile is not this conversation.
    await comment(owner.account.id, fan.account.id, { body: 'elsewhere' });
    const res = await social('talk_owner');
    expect(res.status).to.equal(200);
    const data = res.body.data;
    expect(data).to.include({ username: 'talk_owner', followers: 1, following: 1, relationship: null, wallet: null });
    expect(data.conversation.total).to.equal(2);
    expect(data.conversation.comments.map((c: { body: string }) => c.body)).to.deep.equal(['second', 'first']);
    expect(data.conversation.comments[0].author).to.deep.equal({
      username: 'talk_other',
      display_name: '',
      avatar_url: null,
    });
    expect(data.conversation.comments[0].created_at).to.match(/^\d{4}-\d\d-\d\dT/);
  });

  it('tells the reader how they stand, and shows the reader their own wallet only', async () => {
    const owner = await person('stand_owner');
    const fan = await person('stand_fan');
    await follow(fan.account.id, owner.account.id);
    await follow(owner.account.id, fan.account.id);
    await db()('mineral_balances').insert([
      { account_id: owner.account.id, balance: 999, level: 9 },
      { account_id: fan.account.id, balance: 25, level: 2 },
    ]);
    const asFan = (await social('stand_owner', fan)).body.data;
    expect(asFan.relationship).to.deep.equal({ self: false, following: true, requested: false, followed_by: true });
    expect(asFan.wallet).to.deep.equal({ balance: 25, level: 2 });
    const asOwner = (await social('stand_owner', owner)).body.data;
    expect(asOwner.relationship).to.deep.equal({ self: true, following: false, requested: false, followed_by: false });
    expect(asOwner.wallet).to.deep.equal({ balance: 999, level: 9 });
    // A key's wallet is its owner's: a key reads with profile.read.
    const { token } = await appWithKey(fan.account.id, ['profile.read']);
    const keyed = await app.client.get('/api/v1/profiles/stand_owner/social', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(keyed.status).to.equal(200);
    expect(keyed.body.data.wallet).to.deep.equal({ balance: 25, level: 2 });
    const { token: unscoped } = await appWithKey(fan.account.id, ['catalog.read']);
    const refused = await app.client.get('/api/v1/profiles/stand_owner/social', {
      headers: { authorization: `Bearer ${unscoped}` },
    });
    expect(refused.status).to.equal(403);
  });

  it('shows a pending request, and keeps a private conversation for followers', async () => {
    const owner = await person('closed_owner', 'FOLLOWERS');
    const asker = await person('closed_asker');
    const fan = await person('closed_fan');
    await follow(fan.account.id, owner.account.id);
    await comment(fan.account.id, owner.account.id, { body: 'for followers' });
    expect((await asker.site.put('/api/v1/social/following/closed_owner', {})).body.data.requested).to.equal(true);
    const asAsker = (await social('closed_owner', asker)).body.data;
    expect(asAsker.relationship).to.include({ following: false, requested: true });
    expect(asAsker.conversation).to.equal(null);
    expect(asAsker.followers).to.equal(1);
    expect((await social('closed_owner')).body.data.conversation).to.equal(null);
    expect((await social('closed_owner', fan)).body.data.conversation.total).to.equal(1);
    expect((await social('closed_owner', owner)).body.data.conversation.total).to.equal(1);
  });

  it('leaves out removed comments, blocked authors both ways, and suspended authors but for staff', async () => {
    const owner = await person('mod_owner');
    const reader = await person('mod_reader');
    const blockedByReader = await person('mod_blocked');
    const blocksReader = await person('mod_blocker');
    const blockedByOwner = await person('mod_pest');
    const suspended = await person('mod_suspended');
    const staff = await person('mod_staff');
    await db()('accounts').where({ id: staff.account.id }).update({ role: 'moderator' });
    await comment(reader.account.id, owner.account.id, { body: 'kept' });
    await comment(reader.account.id, owner.account.id, { body: 'removed', removed_at: new Date() });
    for (const author of [blockedByReader, blocksReader, blockedByOwner, suspended]) {
      await comment(author.account.id, owner.account.id, { body: `by ${author.account.id}` });
    }
    await block(reader.account.id, blockedByReader.account.id);
    await block(blocksReader.account.id, reader.account.id);
    await block(owner.account.id, blockedByOwner.account.id);
    await db()('infractions').insert({
      account_id: suspended.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    const bodies = async (who?: { site: SiteClient }) =>
      (await social('mod_owner', who)).body.data.conversation.comments.map((c: { body: string }) => c.body);
    expect(await bodies(reader)).to.deep.equal(['kept']);
    expect((await social('mod_owner', reader)).body.data.conversation.total).to.equal(1);
    const anonymous = await bodies();
    expect(anonymous).to.have.length(3);
    expect(anonymous).to.not.include(`by ${suspended.account.id}`);
    expect(await bodies(staff)).to.include(`by ${suspended.account.id}`);
    // The suspended author still sees their own words.
    expect(await bodies(suspended)).to.include(`by ${suspended.account.id}`);
  });

  it('answers 404 to a reader blocked either way and for an unknown name; pages the newest comments', async () => {
    const owner = await person('busy_owner');
    const blocked = await person('busy_blocked');
    await block(owner.account.id, blocked.account.id);
    expect((await social('busy_owner', blocked)).status).to.equal(404);
    expect((await social('nobody_at_all')).status).to.equal(404);
    const fan = await person('busy_fan');
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < CONVERSATION_SIZE + 5; i++) {
      await comment(fan.account.id, owner.account.id, { body: `c${i}`, created_at: new Date(start + i * 1000) });
    }
    const talk = (await social('busy_owner')).body.data.conversation;
    expect(talk.total).to.equal(CONVERSATION_SIZE + 5);
    expect(talk.comments).to.have.length(CONVERSATION_SIZE);
    expect(talk.comments[0].body).to.equal(`c${CONVERSATION_SIZE + 4}`);
  });
});
