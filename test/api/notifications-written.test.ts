// Notifications written where they happen (DECISIONS: Notifications), read straight from the table: who
// gets what for a follow, a request and its acceptance, a comment on a profile or each kind of thing, an
// infraction and Arcade's decisions; never to oneself; nothing across a block either way, and a block
// removes the unread ones between the two and keeps the read ones. Likes and their collapsing:
// notifications-written-likes.test.ts; deletion, the account's data and retention:
// notifications-written-lifecycle.test.ts.
import { expect } from 'chai';
import { actOnGame } from '../../shared/arcade/review.js';
import { notify } from '../../shared/notifications/notify.js';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseColumns } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { staffMember } from '../helpers/moderation.js';
import { toldTo, type Told } from '../helpers/notifications-written.js';
import { block as blockRow, namedPerson } from '../helpers/people.js';
import { COMMENT_KIND, thing, THING_KINDS } from '../helpers/social-things.js';
import { useTestApp } from '../helpers/test-app.js';

describe('notifications: who is told what', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('follows', () => {
    it('tells a public account of a follow once, a private one of a request, and the requester of the acceptance', async () => {
      const fan = await namedPerson(app.client, 'nw_fan');
      const open = await namedPerson(app.client, 'nw_open');
      const closed = await namedPerson(app.client, 'nw_closed', 'FOLLOWERS');

      for (let i = 0; i < 2; i++) {
        const res = await fan.site.put('/api/v1/social/following/nw_open');
        expect(res.status, res.text).to.equal(200);
      }
      expect(await toldTo(open.account.id)).to.deep.equal([
        { kind: 'follow', actor_id: fan.account.id, subject: null, data: {} },
      ]);

      await fan.site.put('/api/v1/social/following/nw_closed');
      await fan.site.put('/api/v1/social/following/nw_closed');
      expect(await toldTo(closed.account.id)).to.deep.equal([
        { kind: 'follow_request', actor_id: fan.account.id, subject: null, data: {} },
      ]);
      expect(await toldTo(fan.account.id)).to.deep.equal([]);

      const accepted = await closed.site.put('/api/v1/social/follow-requests/nw_fan');
      expect(accepted.status, accepted.text).to.equal(200);
      expect(await toldTo(fan.account.id)).to.deep.equal([
        { kind: 'follow_accepted', actor_id: closed.account.id, subject: null, data: {} },
      ]);
      // Nobody else heard of it.
      expect(await toldTo(open.account.id)).to.have.length(1);
      expect(await toldTo(closed.account.id)).to.have.length(1);
    });

    it('tells each requester when all are accepted at once, except across a block', async () => {
      const owner = await namedPerson(app.client, 'nw_all_owner', 'PRIVATE');
      const asking = await Promise.all(
        ['nw_all_a', 'nw_all_b', 'nw_all_c'].map((name) => namedPerson(app.client, name)),
      );
      for (const person of asking) {
        expect((await person.site.put('/api/v1/social/following/nw_all_owner')).body.data.requested).to.equal(true);
      }
      // A block the block command did not make (it would have removed the request): the write still tests it.
      await blockRow(asking[2].account.id, owner.account.id);
      const res = await owner.site.put('/api/v1/social/follow-requests', { all: true });
      expect(res.body.data).to.deep.equal({ approved: 3 });
      for (const person of asking.slice(0, 2)) {
        expect(await toldTo(person.account.id)).to.deep.equal([
          { kind: 'follow_accepted', actor_id: owner.account.id, subject: null, data: {} },
        ]);
      }
      expect(await toldTo(asking[2].account.id)).to.deep.equal([]);
    });
  });

  describe('comments', () => {
    it('tells the owner of each kind of thing and of a profile, with the comment and its first 140 characters', async () => {
      const owner = await namedPerson(app.client, 'nw_cm_owner');
      const author = await namedPerson(app.client, 'nw_cm_author');
      const expected: Told[] = [];
      for (const kind of THING_KINDS) {
        const target = await thing(owner.account.id, kind);
        const res = await author.site.post('/api/v1/comments', { on: COMMENT_KIND[kind], id: target.id, body: kind });
        expect(res.status, res.text).to.equal(201);
        expected.push({
          kind: 'comment',
          actor_id: author.account.id,
          subject: { kind: COMMENT_KIND[kind], id: target.id },
          data: { comment_id: res.body.data.id, body: kind },
        });
      }
      // Characters, not bytes or UTF-16 units; line breaks kept.
      const long = `${'🎮'.repeat(100)}\n${'á'.repeat(100)}`;
      const onProfile = await author.site.post('/api/v1/comments', { on: 'PROFILE', id: 'NW_CM_OWNER', body: long });
      expect(onProfile.status, onProfile.text).to.equal(201);
      expected.push({
        kind: 'comment',
        actor_id: author.account.id,
        subject: { kind: 'PROFILE', id: 'nw_cm_owner' },
        data: { comment_id: onProfile.body.data.id, body: [...long].slice(0, 140).join('') },
      });
      expect(await toldTo(owner.account.id)).to.deep.equal(expected);
      expect([...((await toldTo(owner.account.id)).at(-1)!.data.body as string)]).to.have.length(140);
      expect(await toldTo(author.account.id)).to.deep.equal([]);
    });

    it('never tells the author of their own comment on their own thing or profile', async () => {
      const owner = await namedPerson(app.client, 'nw_self');
      const review = await thing(owner.account.id, 'review');
      expect((await owner.site.post('/api/v1/comments', { on: 'REVIEW', id: review.id, body: 'Me.' })).status).to.equal(
        201,
      );
      expect(
        (await owner.site.post('/api/v1/comments', { on: 'PROFILE', id: 'nw_self', body: 'Me.' })).status,
      ).to.equal(201);
      expect(await toldTo(owner.account.id)).to.deep.equal([]);
    });

    it('takes a deleted comment’s notification with it, whoever deletes it, and no other', async () => {
      const owner = await namedPerson(app.client, 'nw_del_owner');
      const author = await namedPerson(app.client, 'nw_del_author');
      const review = await thing(owner.account.id, 'review');
      const post = async (body: string) =>
        (await author.site.post('/api/v1/comments', { on: 'REVIEW', id: review.id, body })).body.data.id as string;
      const [first, second, third] = [await post('One.'), await post('Two.'), await post('Three.')];
      expect((await author.site.delete(`/api/v1/comments/${first}`)).status).to.be.oneOf([200, 204]);
      expect((await owner.site.delete(`/api/v1/comments/${second}`)).status).to.be.oneOf([200, 204]);
      expect((await toldTo(owner.account.id)).map((told) => told.data.comment_id)).to.deep.equal([third]);
    });
  });

  describe('blocks', () => {
    /** Everything each of the two can cause the other through the routes: follows, likes, comments. */
    async function crossTalk(a: Awaited<ReturnType<typeof namedPerson>>, b: Awaited<ReturnType<typeof namedPerson>>) {
      for (const [from, to] of [
        [a, b],
        [b, a],
      ]) {
        const username = (await db()('accounts').where({ id: to.account.id }).first('username')).username as string;
        const review = await thing(to.account.id, 'review');
        expect((await from.site.put(`/api/v1/social/following/${username}`)).status).to.equal(200);
        expect((await from.site.put(`/api/v1/likes/review/${review.id}`)).status).to.equal(200);
        expect(
          (await from.site.post('/api/v1/comments', { on: 'REVIEW', id: review.id, body: 'Hi.' })).status,
        ).to.equal(201);
      }
    }

    for (const direction of ['the owner blocks', 'the other blocks'] as const) {
      it(`removes the unread notifications between the two and keeps the read ones when ${direction}`, async () => {
        const tag = direction === 'the owner blocks' ? 'ob' : 'xb';
        const owner = await namedPerson(app.client, `nw_${tag}_owner`);
        const other = await namedPerson(app.client, `nw_${tag}_other`);
        const third = await namedPerson(app.client, `nw_${tag}_third`);
        await crossTalk(owner, other);
        await crossTalk(owner, third);
        // Each of the two has read one notification from the other.
        for (const [reader, from] of [
          [owner, other],
          [other, owner],
        ]) {
          const read = await db()('notifications')
            .where({ account_id: reader.account.id, actor_id: from.account.id, kind: 'like' })
            .update({ read_at: new Date() });
          expect(read).to.equal(1);
        }
        const blocker = direction === 'the owner blocks' ? owner : other;
        const blockedName = direction === 'the owner blocks' ? `nw_${tag}_other` : `nw_${tag}_owner`;
        const res = await blocker.site.put(`/api/v1/social/blocks/${blockedName}`);
        expect(res.status, res.text).to.equal(200);

        for (const [reader, from] of [
          [owner, other],
          [other, owner],
        ]) {
          const left = (await toldTo(reader.account.id)).filter((told) => told.actor_id === from.account.id);
          expect(left.map((told) => told.kind)).to.deep.equal(['like']);
        }
        // What the third person and either of the two told each other stays.
        expect(await toldTo(third.account.id)).to.have.length(3);
        expect((await toldTo(owner.account.id)).filter((told) => told.actor_id === third.account.id)).to.have.length(3);
      });
    }

    it('writes nothing from an account blocked either way, through the routes or notify()', async () => {
      const owner = await namedPerson(app.client, 'nw_bb_owner');
      const blocked = await namedPerson(app.client, 'nw_bb_blocked');
      const blocker = await namedPerson(app.client, 'nw_bb_blocker');
      const stranger = await namedPerson(app.client, 'nw_bb_stranger');
      expect((await owner.site.put('/api/v1/social/blocks/nw_bb_blocked')).status).to.equal(200);
      expect((await blocker.site.put('/api/v1/social/blocks/nw_bb_owner')).status).to.equal(200);
      const review = await thing(owner.account.id, 'review');
      for (const person of [blocked, blocker]) {
        // Each is refused, and nothing is written.
        expect((await person.site.put('/api/v1/social/following/nw_bb_owner')).status).to.be.oneOf([404, 409]);
        expect((await person.site.put(`/api/v1/likes/review/${review.id}`)).status).to.equal(404);
        expect(
          (await person.site.post('/api/v1/comments', { on: 'REVIEW', id: review.id, body: 'x' })).status,
        ).to.equal(404);
      }
      // notify() holds the same line, both ways, for whatever writer calls it.
      for (const person of [blocked, blocker, stranger]) {
        await notify(db(), { recipientId: owner.account.id, kind: 'follow', actorId: person.account.id });
        await notify(db(), { recipientId: person.account.id, kind: 'follow', actorId: owner.account.id });
      }
      await notify(db(), { recipientId: owner.account.id, kind: 'follow', actorId: owner.account.id });
      expect((await toldTo(owner.account.id)).map((told) => told.actor_id)).to.deep.equal([stranger.account.id]);
      expect(await toldTo(blocked.account.id)).to.deep.equal([]);
      expect(await toldTo(blocker.account.id)).to.deep.equal([]);
      expect(await toldTo(stranger.account.id)).to.have.length(1);
    });
  });

  describe('moderation', () => {
    it('tells an account of each infraction, from nobody', async () => {
      const moderator = await staffMember(app.client, 'nw_mod_inf');
      const member = await namedPerson(app.client, 'nw_inf_member');
      const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const warned = await moderator.site.post(`/api/v1/moderation/accounts/${member.account.id}/infractions`, {
        reason: 'Aviso',
        details: 'Leia as regras.',
        expires_at: expiresAt,
      });
      expect(warned.status, warned.text).to.equal(201);
      const banned = await moderator.site.post(`/api/v1/moderation/accounts/${member.account.id}/infractions`, {
        reason: 'Banimento permanente',
      });
      expect(banned.status, banned.text).to.equal(201);
      expect(await toldTo(member.account.id)).to.deep.equal([
        {
          kind: 'infraction',
          actor_id: null,
          subject: null,
          data: { infraction_id: warned.body.data.id, reason: 'Aviso', expires_at: expiresAt },
        },
        {
          kind: 'infraction',
          actor_id: null,
          subject: null,
          data: { infraction_id: banned.body.data.id, reason: 'Banimento permanente', expires_at: null },
        },
      ]);
      expect(await toldTo(moderator.account.id)).to.deep.equal([]);
    });

    it('tells the developer of decisions on releases, store pages and the game, from nobody', async () => {
      const moderator = await staffMember(app.client, 'nw_mod_arcade');
      const dev = await arcadeDeveloper(app.client);
      await enabledGame(dev, 'told-game');
      const [release] = await db()('arcade_releases')
        .insert({ app_id: dev.app.id, number: 1, status: 'submitted', submitted_at: new Date(), ...releaseColumns() })
        .returning('id');
      const [listing] = await db()('arcade_listings')
        .insert({
          app_id: dev.app.id,
          number: 1,
          status: 'submitted',
          submitted_at: new Date(),
          fields: JSON.stringify(listingBody()),
        })
        .returning('id');
      const decide = (path: string, body: Record<string, unknown>) =>
        moderator.site.post(`/api/v1/moderation/arcade/${path}`, body).then((res) => {
          expect(res.status, res.text).to.equal(200);
        });
      await decide(`releases/${release.id}`, { decision: 'in_review' });
      expect(await toldTo(dev.account.id), 'in review is no decision').to.deep.equal([]);
      await decide(`releases/${release.id}`, { decision: 'approve', note: 'Fine.' });
      await decide(`listings/${listing.id}`, { decision: 'reject', reasons: ['misleading_name'] });
      await decide(`apps/${dev.app.id}`, { action: 'flag', reason: 'Checking a complaint.' });
      await actOnGame(db(), null, dev.app.id, 'hide', 'reports');

      const game = { kind: 'ARCADE_GAME', id: dev.app.id };
      const told = (data: Record<string, unknown>) => ({ kind: 'arcade_review', actor_id: null, subject: game, data });
      expect(await toldTo(dev.account.id)).to.deep.equal([
        told({ target: 'release', decision: 'approve', version: 1, reasons: [], note: 'Fine.' }),
        told({ target: 'listing', decision: 'reject', version: 1, reasons: ['misleading_name'], note: null }),
        told({ target: 'game', decision: 'flag', reason: 'Checking a complaint.' }),
        told({ target: 'game', decision: 'hide', reason: 'reports' }),
      ]);
      expect(await toldTo(moderator.account.id)).to.deep.equal([]);
    });
  });
});
