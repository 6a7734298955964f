// How long notifications live (DECISIONS: Notifications, Shared rules): a deleted thing takes the
// notifications about it (its likes' and its comments'), through a route, a category of DELETE
// /account/data or the account's deletion; `everything` empties the account's own and keeps its stream
// counter; the export holds them; the retention purge removes those older than 90 days (times moved back).
import { expect } from 'chai';
import { notify } from '../../shared/notifications/notify.js';
import { NOTIFICATION_RETENTION_DAYS } from '../../shared/notifications/rows.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { createMediaStorage } from '../../shared/platform/storage/create-media-storage.js';
import { purgeRetention } from '../../shared/retention/purge.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { PASSWORD } from '../helpers/factories.js';
import { toldTo } from '../helpers/notifications-written.js';
import { namedPerson } from '../helpers/people.js';
import { COMMENT_KIND, TABLE, thing, THING_KINDS, type Thing } from '../helpers/social-things.js';
import { useTestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;

describe('notifications: deletion, the account’s data and retention', () => {
  useCleanDatabase();
  const app = useTestApp();

  type Person = Awaited<ReturnType<typeof namedPerson>>;

  /** The fan likes (when it can be liked) and comments on the thing: what its owner is told about it. */
  async function talkAbout(fan: Person, target: Thing) {
    if (target.kind !== 'session') {
      expect((await fan.site.put(`/api/v1/likes/${target.kind}/${target.id}`)).status).to.equal(200);
    }
    const res = await fan.site.post('/api/v1/comments', { on: COMMENT_KIND[target.kind], id: target.id, body: 'Hi.' });
    expect(res.status, res.text).to.equal(201);
  }

  const about = async (ownerId: string) =>
    (await toldTo(ownerId)).map((told) => `${told.kind} ${told.subject?.kind} ${told.subject?.id}`);

  it('takes the notifications about a deleted thing of each kind, and only those', async () => {
    const owner = await namedPerson(app.client, 'nd_owner');
    const fan = await namedPerson(app.client, 'nd_fan');
    const kept = await thing(owner.account.id, 'review');
    await talkAbout(fan, kept);
    await fan.site.post('/api/v1/comments', { on: 'PROFILE', id: 'nd_owner', body: 'Hi.' });
    const before = await about(owner.account.id);
    for (const kind of THING_KINDS) {
      const target = await thing(owner.account.id, kind);
      await talkAbout(fan, target);
      expect(await about(owner.account.id), kind).to.have.length(before.length + (kind === 'session' ? 1 : 2));
      await db()(TABLE[kind]).where({ id: target.rowId }).delete();
      expect(await about(owner.account.id), kind).to.deep.equal(before);
    }
  });

  it('takes them when the author deletes the thing through its route', async () => {
    const owner = await namedPerson(app.client, 'nd_route_owner');
    const fan = await namedPerson(app.client, 'nd_route_fan');
    const review = await thing(owner.account.id, 'review');
    const list = await thing(owner.account.id, 'list');
    await talkAbout(fan, review);
    await talkAbout(fan, list);
    expect((await owner.site.delete(`/api/v1/reviews/${review.id}`)).status).to.be.oneOf([200, 204]);
    expect(await about(owner.account.id)).to.deep.equal([`like LIST ${list.id}`, `comment LIST ${list.id}`]);
  });

  it('takes them with a category of DELETE /account/data: the owner’s things, or the author’s comments', async () => {
    const owner = await namedPerson(app.client, 'nd_data_owner');
    const fan = await namedPerson(app.client, 'nd_data_fan');
    const review = await thing(owner.account.id, 'review');
    const list = await thing(owner.account.id, 'list');
    await talkAbout(fan, review);
    await talkAbout(fan, list);
    const reviews = await owner.site.delete('/api/v1/account/data?category=reviews', { body: { password: PASSWORD } });
    expect(reviews.status, reviews.text).to.equal(200);
    expect(await about(owner.account.id)).to.deep.equal([`like LIST ${list.id}`, `comment LIST ${list.id}`]);

    const comments = await fan.site.delete('/api/v1/account/data?category=comments', { body: { password: PASSWORD } });
    // The review took its comment along; the list's is left.
    expect(comments.body.data.removed).to.deep.equal({ comments: 1 });
    expect(await about(owner.account.id)).to.deep.equal([`like LIST ${list.id}`]);
  });

  it('empties the account’s own with everything, keeping its stream counter and what it told others', async () => {
    const owner = await namedPerson(app.client, 'nd_all_owner');
    const fan = await namedPerson(app.client, 'nd_all_fan');
    await fan.site.put('/api/v1/social/following/nd_all_owner');
    await owner.site.put('/api/v1/social/following/nd_all_fan');
    const seq = async () => (await db()('notification_sequences').where({ account_id: owner.account.id }).first())?.seq;
    expect(await seq()).to.equal(1);

    const library = await owner.site.delete('/api/v1/account/data?category=library', { body: { password: PASSWORD } });
    expect(library.body.data.removed).to.not.have.property('notifications');
    expect(await toldTo(owner.account.id)).to.have.length(1);

    const everything = await owner.site.delete('/api/v1/account/data?category=everything', {
      body: { password: PASSWORD },
    });
    expect(everything.status, everything.text).to.equal(200);
    expect(everything.body.data.removed).to.deep.include({ notifications: 1 });
    expect(await toldTo(owner.account.id)).to.deep.equal([]);
    expect(await seq(), 'a stream resuming after seq 1 still hears what comes next').to.equal(1);
    expect(await toldTo(fan.account.id)).to.have.length(1);
  });

  it('takes what a deleted account caused and received', async () => {
    const owner = await namedPerson(app.client, 'nd_gone_owner');
    const leaving = await namedPerson(app.client, 'nd_gone_leaving');
    await leaving.site.put('/api/v1/social/following/nd_gone_owner');
    await owner.site.put('/api/v1/social/following/nd_gone_leaving');
    await db()('accounts').where({ id: leaving.account.id }).delete();
    expect(await toldTo(owner.account.id)).to.deep.equal([]);
    expect(await db()('notifications').where({ account_id: leaving.account.id })).to.deep.equal([]);
  });

  it('exports what the account was told', async () => {
    const owner = await namedPerson(app.client, 'nd_export_owner');
    const fan = await namedPerson(app.client, 'nd_export_fan');
    await fan.site.put('/api/v1/social/following/nd_export_owner');
    const res = await owner.site.get('/api/v1/account/export');
    expect(res.status, res.text).to.equal(200);
    const [told, ...none] = JSON.parse(res.text).data.notifications;
    expect(none).to.deep.equal([]);
    expect(told).to.include({ kind: 'follow', actor_id: fan.account.id, subject_kind: null, read_at: null });
    expect(told).to.have.keys([
      'id',
      'kind',
      'actor_id',
      'subject_kind',
      'subject_id',
      'data',
      'created_at',
      'read_at',
    ]);
  });

  it('removes notifications older than 90 days in the retention purge', async () => {
    const owner = await namedPerson(app.client, 'nd_purge_owner');
    const actors = await Promise.all(['nd_purge_a', 'nd_purge_b', 'nd_purge_c'].map((n) => namedPerson(app.client, n)));
    for (const actor of actors) {
      await notify(db(), { recipientId: owner.account.id, kind: 'follow', actorId: actor.account.id });
    }
    const ageOf = (actor: Person, days: number) =>
      db()('notifications')
        .where({ account_id: owner.account.id, actor_id: actor.account.id })
        .update({ created_at: new Date(Date.now() - days * DAY) });
    await ageOf(actors[0], NOTIFICATION_RETENTION_DAYS + 1);
    await ageOf(actors[1], NOTIFICATION_RETENTION_DAYS - 1);

    const report = await purgeRetention(db(), createMediaStorage(config()));
    expect(report.expired_notifications).to.equal(1);
    expect((await toldTo(owner.account.id)).map((told) => told.actor_id)).to.deep.equal([
      actors[1].account.id,
      actors[2].account.id,
    ]);
    expect((await purgeRetention(db(), createMediaStorage(config()))).expired_notifications).to.equal(0);
  });
});
