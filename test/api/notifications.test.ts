// GET /notifications, GET /notifications/unread-count and POST /notifications/read (DECISIONS: Notifications;
// Cursor reads): what a notification shows, newest first by cursor, the unread filter and count, marking by
// ids and all (exactly, under parallel marks), another person's ids, blocks either way, the 90 days kept,
// every refusal and the scope. The live stream: notifications-stream.test.ts.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { notify } from '../../shared/notifications/notify.js';
import type { NotificationInput } from '../../shared/notifications/rows.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { block, namedPerson } from '../helpers/people.js';
import { keyed, refused } from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Shown = { id: string; kind: string; created_at: string; read_at: string | null };

/** Writes one notification through notify() and answers its id. */
async function written(input: NotificationInput): Promise<string> {
  await notify(db(), input);
  const row = await db()('notifications').where({ account_id: input.recipientId }).orderBy('seq', 'desc').first('id');
  return row.id;
}

/** Sets when a notification was written, to walk the cursor over known instants. */
const writtenAt = (id: string, at: string) => db()('notifications').where({ id }).update({ created_at: at });

const ids = (res: { body: { data: Shown[] } }) => res.body.data.map((n) => n.id);

describe('notifications: reading and marking read', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('GET /notifications', () => {
    it('shows each notification with its actor, subject, data and times', async () => {
      const reader = await namedPerson(app.client, 'nt_reader');
      const actor = await namedPerson(app.client, 'nt_actor');
      await db()('accounts').where({ id: actor.account.id }).update({ display_name: 'Ana' });
      const [image] = await db()('images')
        .insert({
          account_id: actor.account.id,
          purpose: 'avatar',
          storage_key: `avatars/${randomUUID()}.webp`,
          content_type: 'image/webp',
          width: 256,
          height: 256,
          bytes: 1000,
          animated: false,
        })
        .returning(['id', 'storage_key']);
      await db()('profiles')
        .insert({ account_id: actor.account.id, avatar_image_id: image.id })
        .onConflict('account_id')
        .merge();
      const review = randomUUID();
      const liked = await written({
        recipientId: reader.account.id,
        kind: 'like',
        actorId: actor.account.id,
        subject: { kind: 'REVIEW', id: review },
        data: { count: 1 },
      });
      const warned = await written({
        recipientId: reader.account.id,
        kind: 'infraction',
        actorId: null,
        data: { infraction_id: randomUUID(), reason: 'Aviso', expires_at: null },
      });
      await writtenAt(liked, '2026-11-20T10:00:00.123456Z');
      await writtenAt(warned, '2026-11-20T11:00:00.654321Z');

      const res = await reader.site.get('/api/v1/notifications');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.have.keys(['data', 'has_more', 'next_before']);
      expect(res.body).to.include({ has_more: false, next_before: null });
      expect(ids(res)).to.deep.equal([warned, liked]);
      const [service, like] = res.body.data;
      expect(service).to.deep.include({ kind: 'infraction', actor: null, subject: null, read_at: null });
      expect(service.created_at).to.equal('2026-11-20T11:00:00.654321Z');
      expect(like).to.have.keys(['id', 'kind', 'actor', 'subject', 'data', 'created_at', 'read_at']);
      expect(like).to.deep.include({
        kind: 'like',
        subject: { kind: 'REVIEW', id: review },
        data: { count: 1 },
        created_at: '2026-11-20T10:00:00.123456Z',
        read_at: null,
      });
      expect(like.actor).to.include({ id: actor.account.id, username: 'nt_actor', display_name: 'Ana' });
      expect(like.actor.avatar_url).to.match(/^https?:\/\/.+/);
      expect(like.actor.avatar_url.endsWith(image.storage_key)).to.equal(true);

      // Nobody else's notifications, and none of the actor's own.
      expect((await actor.site.get('/api/v1/notifications')).body.data).to.deep.equal([]);
      // Nothing to oneself.
      await notify(db(), { recipientId: reader.account.id, kind: 'follow', actorId: reader.account.id });
      expect(ids(await reader.site.get('/api/v1/notifications'))).to.have.length(2);
    });

    it('walks newest first by before, never ending a page inside one instant', async () => {
      const reader = await namedPerson(app.client, 'nt_pages');
      const actor = await namedPerson(app.client, 'nt_pages_actor');
      const made: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        made.push(await written({ recipientId: reader.account.id, kind: 'follow', actorId: actor.account.id }));
      }
      // Five instants a microsecond apart, oldest first; the newest two share the last one.
      for (const [i, id] of made.entries()) await writtenAt(id, `2026-11-20T10:00:00.00000${Math.min(i, 4)}Z`);
      const tied = [made[4], made[5]].sort().reverse();

      const first = await reader.site.get('/api/v1/notifications?limit=3');
      expect(ids(first)).to.deep.equal([...tied, made[3]]);
      expect(first.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:00.000003Z' });
      const second = await reader.site.get(`/api/v1/notifications?limit=2&before=${first.body.next_before}`);
      expect(ids(second)).to.deep.equal([made[2], made[1]]);
      expect(second.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:00.000001Z' });
      const last = await reader.site.get(`/api/v1/notifications?limit=2&before=${second.body.next_before}`);
      expect(ids(last)).to.deep.equal([made[0]]);
      expect(last.body).to.include({ has_more: false, next_before: null });
      // A page of one cannot split the tied pair: it holds both, then goes on before them.
      const one = await reader.site.get('/api/v1/notifications?limit=1');
      expect(ids(one)).to.deep.equal(tied);
      expect(one.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:00.000004Z' });
      expect((await reader.site.get('/api/v1/notifications?limit=100')).body.data).to.have.length(6);
    });

    it('keeps 90 days and shows nothing from a person blocked either way', async () => {
      const reader = await namedPerson(app.client, 'nt_kept');
      const blocked = await namedPerson(app.client, 'nt_blocked');
      const blocker = await namedPerson(app.client, 'nt_blocker');
      const friend = await namedPerson(app.client, 'nt_friend');
      const old = await written({ recipientId: reader.account.id, kind: 'follow', actorId: friend.account.id });
      await db()('notifications')
        .where({ id: old })
        .update({ created_at: new Date(Date.now() - 91 * 86_400_000) });
      const kept = await written({ recipientId: reader.account.id, kind: 'follow', actorId: friend.account.id });
      // Read ones stay after a block (the block's command removes unread ones only): a read hides them.
      const fromBlocked = await written({
        recipientId: reader.account.id,
        kind: 'follow',
        actorId: blocked.account.id,
      });
      const fromBlocker = await written({
        recipientId: reader.account.id,
        kind: 'follow',
        actorId: blocker.account.id,
      });
      await db()('notifications').whereIn('id', [fromBlocked, fromBlocker]).update({ read_at: new Date() });
      const unreadFromBlocked = await written({
        recipientId: reader.account.id,
        kind: 'comment',
        actorId: blocked.account.id,
        data: { comment_id: randomUUID(), body: 'hi' },
      });
      expect(ids(await reader.site.get('/api/v1/notifications'))).to.have.members([
        kept,
        fromBlocked,
        fromBlocker,
        unreadFromBlocked,
      ]);
      expect((await reader.site.get('/api/v1/notifications/unread-count')).body).to.deep.equal({
        data: { unread: 2 },
      });

      await block(reader.account.id, blocked.account.id);
      await block(blocker.account.id, reader.account.id);
      expect(ids(await reader.site.get('/api/v1/notifications'))).to.deep.equal([kept]);
      expect(ids(await reader.site.get('/api/v1/notifications?unread=1'))).to.deep.equal([kept]);
      expect((await reader.site.get('/api/v1/notifications/unread-count')).body.data.unread).to.equal(1);
      // Marking all changes what is shown alone.
      expect((await reader.site.post('/api/v1/notifications/read', { all: true })).body.data.marked).to.equal(1);
      const hidden = await db()('notifications').where({ id: unreadFromBlocked }).first('read_at');
      expect(hidden.read_at).to.equal(null);
      // notify() writes nothing across a block, either way.
      const before = await db()('notifications').where({ account_id: reader.account.id }).count('* as n').first();
      await notify(db(), { recipientId: reader.account.id, kind: 'follow', actorId: blocked.account.id });
      await notify(db(), { recipientId: reader.account.id, kind: 'follow', actorId: blocker.account.id });
      const after = await db()('notifications').where({ account_id: reader.account.id }).count('* as n').first();
      expect(after!.n).to.equal(before!.n);
    });

    it('refuses what the schema sees, and needs a caller holding notifications.read', async () => {
      const reader = await namedPerson(app.client, 'nt_refused');
      const cases: Array<[string, string, string]> = [
        ['limit=0', 'limit', 'out_of_range'],
        ['limit=101', 'limit', 'out_of_range'],
        ['limit=two', 'limit', 'wrong_type'],
        ['before=yesterday', 'before', 'bad_format'],
        ['unread=2', 'unread', 'out_of_range'],
        ['unread=yes', 'unread', 'wrong_type'],
      ];
      for (const [query, field, reason] of cases) {
        refused(
          await reader.site.get(`/api/v1/notifications?${query}`),
          400,
          { code: 'invalid_request', field, reason },
          query,
        );
      }
      expect((await reader.site.get('/api/v1/notifications?limit=100&unread=0')).status).to.equal(200);
      const anonymous = new SiteClient(app.client);
      refused(await anonymous.get('/api/v1/notifications'), 401, { code: 'unauthorized' });
      refused(await anonymous.get('/api/v1/notifications/unread-count'), 401, { code: 'unauthorized' });
      refused(await anonymous.post('/api/v1/notifications/read', { all: true }), 401, { code: 'unauthorized' });

      const other = await keyed(app.client, reader.account.id, ['social.read', 'profile.read']);
      for (const res of [
        await other.get('/api/v1/notifications'),
        await other.get('/api/v1/notifications/unread-count'),
        await other.post('/api/v1/notifications/read', { all: true }),
      ]) {
        refused(res, 403, { code: 'insufficient_scope', scope: 'notifications.read' });
      }
      await notify(db(), { recipientId: reader.account.id, kind: 'follow', actorId: null });
      const key = await keyed(app.client, reader.account.id, ['notifications.read']);
      const list = await key.get('/api/v1/notifications');
      expect(list.status).to.equal(200);
      expect(list.body.data).to.have.length(1);
      expect(list.headers.get('x-ratelimit-resource')).to.equal('read');
      const count = await key.get('/api/v1/notifications/unread-count');
      expect([count.status, count.body.data.unread, count.headers.get('x-ratelimit-resource')]).to.deep.equal([
        200,
        1,
        'read',
      ]);
      const marked = await key.post('/api/v1/notifications/read', { all: true });
      expect([marked.status, marked.body.data.marked, marked.headers.get('x-ratelimit-resource')]).to.deep.equal([
        200,
        1,
        'write',
      ]);
    });
  });

  describe('unread: the filter, the count and marking read', () => {
    it('marks by ids and all, counting what changed from unread to read', async () => {
      const reader = await namedPerson(app.client, 'nt_marks');
      const actor = await namedPerson(app.client, 'nt_marks_actor');
      const made: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        made.push(await written({ recipientId: reader.account.id, kind: 'follow', actorId: actor.account.id }));
        await writtenAt(made[i], `2026-11-21T10:00:0${i}.000000Z`);
      }
      const count = async () => (await reader.site.get('/api/v1/notifications/unread-count')).body.data.unread;
      expect(await count()).to.equal(5);
      const seqs = () => db()('notifications').whereIn('id', made).orderBy('created_at').pluck('seq');
      const unmarkedSeqs = await seqs();

      const some = await reader.site.post('/api/v1/notifications/read', { ids: [made[1], made[3]] });
      expect(some.status, some.text).to.equal(200);
      expect(some.body).to.deep.equal({ data: { marked: 2 } });
      expect(await count()).to.equal(3);
      // Again, with one more: only the one that was still unread changes.
      const again = await reader.site.post('/api/v1/notifications/read', { ids: [made[1], made[3], made[4], made[4]] });
      expect(again.body.data.marked).to.equal(1);

      const unread = await reader.site.get('/api/v1/notifications?unread=1');
      expect(ids(unread)).to.deep.equal([made[2], made[0]]);
      expect(unread.body.data.every((n: Shown) => n.read_at === null)).to.equal(true);
      const paged = await reader.site.get('/api/v1/notifications?unread=1&limit=1');
      expect(ids(paged)).to.deep.equal([made[2]]);
      expect(paged.body).to.include({ has_more: true, next_before: '2026-11-21T10:00:02.000000Z' });
      const rest = await reader.site.get(`/api/v1/notifications?unread=1&limit=1&before=${paged.body.next_before}`);
      expect(ids(rest)).to.deep.equal([made[0]]);
      expect(rest.body.has_more).to.equal(false);

      const all = (await reader.site.get('/api/v1/notifications')).body.data as Shown[];
      expect(all.map((n) => n.id)).to.deep.equal([...made].reverse());
      const readOnes = all.filter((n) => n.read_at !== null).map((n) => n.id);
      expect(readOnes).to.have.members([made[1], made[3], made[4]]);
      expect(all.find((n) => n.id === made[1])!.read_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

      expect((await reader.site.post('/api/v1/notifications/read', { all: true })).body.data.marked).to.equal(2);
      expect(await count()).to.equal(0);
      expect((await reader.site.get('/api/v1/notifications?unread=1')).body.data).to.deep.equal([]);
      expect((await reader.site.post('/api/v1/notifications/read', { all: true })).body.data.marked).to.equal(0);
      // Marking read is not news: the stream order stays.
      expect(await seqs()).to.deep.equal(unmarkedSeqs);
    });

    it('marks nothing of another person’s, answering as for ids that name nothing', async () => {
      const reader = await namedPerson(app.client, 'nt_own');
      const other = await namedPerson(app.client, 'nt_other');
      const mine = await written({ recipientId: reader.account.id, kind: 'follow', actorId: other.account.id });
      const theirs = await written({ recipientId: other.account.id, kind: 'follow', actorId: reader.account.id });
      const res = await reader.site.post('/api/v1/notifications/read', { ids: [theirs, randomUUID()] });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ data: { marked: 0 } });
      expect((await db()('notifications').where({ id: theirs }).first('read_at')).read_at).to.equal(null);
      expect((await other.site.get('/api/v1/notifications/unread-count')).body.data.unread).to.equal(1);
      // All is the caller's own alone.
      expect((await reader.site.post('/api/v1/notifications/read', { all: true })).body.data.marked).to.equal(1);
      expect((await db()('notifications').where({ id: mine }).first('read_at')).read_at).to.not.equal(null);
      expect((await other.site.get('/api/v1/notifications/unread-count')).body.data.unread).to.equal(1);
    });

    it('counts each notification once when marks race', async () => {
      const reader = await namedPerson(app.client, 'nt_race');
      const made: string[] = [];
      for (let i = 0; i < 30; i += 1) {
        made.push(await written({ recipientId: reader.account.id, kind: 'follow', actorId: null }));
      }
      const answers = await Promise.all([
        reader.site.post('/api/v1/notifications/read', { all: true }),
        reader.site.post('/api/v1/notifications/read', { ids: made.slice(0, 20) }),
        reader.site.post('/api/v1/notifications/read', { ids: made.slice(10) }),
        reader.site.post('/api/v1/notifications/read', { all: true }),
      ]);
      expect(answers.map((res) => res.status)).to.deep.equal([200, 200, 200, 200]);
      expect(answers.reduce((sum, res) => sum + res.body.data.marked, 0)).to.equal(30);
    });

    it('refuses a mark that is not exactly ids or all', async () => {
      const reader = await namedPerson(app.client, 'nt_mark_refused');
      const id = randomUUID();
      const cases: Array<[unknown, string, string]> = [
        [{}, 'ids', 'missing'],
        [{ ids: [id], all: true }, 'all', 'not_allowed'],
        [{ ids: [] }, 'ids', 'too_short'],
        [{ ids: Array.from({ length: 101 }, () => randomUUID()) }, 'ids', 'too_long'],
        [{ ids: ['not-a-uuid'] }, 'ids', 'bad_format'],
        [{ ids: [`urn:uuid:${id}`] }, 'ids', 'bad_format'],
        [{ ids: [7] }, 'ids', 'wrong_type'],
        [{ ids: id }, 'ids', 'wrong_type'],
        [{ all: false }, 'all', 'not_allowed'],
        [{ all: 'yes' }, 'all', 'wrong_type'],
        [{ all: true, every: true }, 'every', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) {
        refused(
          await reader.site.post('/api/v1/notifications/read', body),
          400,
          { code: 'invalid_request', field, reason },
          JSON.stringify(body).slice(0, 80),
        );
      }
      const hundred = await reader.site.post('/api/v1/notifications/read', {
        ids: Array.from({ length: 100 }, () => randomUUID()),
      });
      expect([hundred.status, hundred.body.data.marked]).to.deep.equal([200, 0]);
    });
  });
});
