// POST /comments, GET /comments and DELETE /comments/{id} (DECISIONS: Likes and comments): a comment on a
// profile and on each kind of thing, what the schema and the data refuse, the cap of 30 in a rolling hour
// (held under parallel writes), who may delete, and the scopes. Who may read and write where:
// comments-visibility.test.ts; reports, moderation and the account's data: comments-moderation.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { namedPerson } from '../helpers/people.js';
import { ageOldestRollingUse, rollingUsesOf, seedRollingUses } from '../helpers/rolling-uses.js';
import { COMMENT_KIND, keyed, NOT_FOUND_REASON, refused, thing, THING_KINDS } from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('comments: writing, reading and deleting', () => {
  useCleanDatabase();
  const app = useTestApp();

  const usesOf = (accountId: string) => rollingUsesOf(`comments:${accountId}`);
  const seedUses = (accountId: string, count: number, secondsAgo = 60) =>
    seedRollingUses(`comments:${accountId}`, count, secondsAgo);

  describe('POST /comments', () => {
    it('writes on a profile and on every kind of thing, answering the comment where it is', async () => {
      const owner = await namedPerson(app.client, 'cm_owner');
      const author = await namedPerson(app.client, 'cm_author');
      const onProfile = await author.site.post('/api/v1/comments', { on: 'PROFILE', id: 'CM_Owner', body: 'Hi!' });
      expect(onProfile.status, onProfile.text).to.equal(201);
      expect(onProfile.body.data).to.have.keys(['id', 'on', 'author', 'body', 'created_at']);
      expect(onProfile.body.data).to.deep.include({
        on: { kind: 'PROFILE', id: 'cm_owner' },
        author: { username: 'cm_author', display_name: '', avatar_url: null },
        body: 'Hi!',
      });
      expect(onProfile.body.data.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(await db()('comments').where({ id: onProfile.body.data.id }).first()).to.include({
        account_id: author.account.id,
        target_kind: 'PROFILE',
        target_id: owner.account.id,
        target_account_id: owner.account.id,
      });

      for (const kind of THING_KINDS) {
        const target = await thing(owner.account.id, kind);
        const body = `On a ${kind}.\n\tIndented.`;
        const res = await author.site.post('/api/v1/comments', { on: COMMENT_KIND[kind], id: target.id, body });
        expect(res.status, `${kind}: ${res.text}`).to.equal(201);
        expect(res.body.data).to.deep.include({ on: { kind: COMMENT_KIND[kind], id: target.id }, body });
        // Stored by the thing's row id, lists and screenshots included, beside whose thing it is.
        expect(await db()('comments').where({ id: res.body.data.id }).first()).to.include({
          target_kind: COMMENT_KIND[kind],
          target_id: target.rowId,
          target_account_id: owner.account.id,
        });
        const read = await new SiteClient(app.client).get(`/api/v1/comments?on=${COMMENT_KIND[kind]}&id=${target.id}`);
        expect(read.status, read.text).to.equal(200);
        expect(read.body).to.deep.equal({ data: [res.body.data], has_more: false, next_before: null });
      }
      // The owner answers in their own thread.
      const review = await thing(owner.account.id, 'review');
      const reply = await owner.site.post('/api/v1/comments', { on: 'REVIEW', id: review.id, body: 'Thanks.' });
      expect(reply.status).to.equal(201);
      expect((await owner.site.get(`/api/v1/reviews/${review.id}`)).body.data.comments).to.equal(1);
      expect(await usesOf(author.account.id)).to.equal(6);
    });

    it('refuses what the schema sees with validation’s reasons and what the data sees with fields_invalid', async () => {
      const owner = await namedPerson(app.client, 'cm_ref_owner');
      const author = await namedPerson(app.client, 'cm_ref_author');
      const review = await thing(owner.account.id, 'review');
      const ok = { on: 'REVIEW', id: review.id, body: 'Fine.' };
      const cases: Array<[unknown, string, string]> = [
        [{ id: review.id, body: 'x' }, 'on', 'missing'],
        [{ on: 'REVIEW', body: 'x' }, 'id', 'missing'],
        [{ on: 'REVIEW', id: review.id }, 'body', 'missing'],
        [{ ...ok, on: 'review' }, 'on', 'not_allowed'],
        [{ ...ok, on: 'COMMENT' }, 'on', 'not_allowed'],
        [{ ...ok, on: 'SESSION' }, 'on', 'not_allowed'],
        [{ ...ok, on: 1 }, 'on', 'wrong_type'],
        [{ ...ok, id: '' }, 'id', 'too_short'],
        [{ ...ok, id: 'x'.repeat(101) }, 'id', 'too_long'],
        [{ ...ok, id: 7 }, 'id', 'wrong_type'],
        [{ ...ok, body: '' }, 'body', 'too_short'],
        [{ ...ok, body: 'x'.repeat(1001) }, 'body', 'too_long'],
        [{ ...ok, body: '😀'.repeat(1001) }, 'body', 'too_long'],
        [{ ...ok, body: ['x'] }, 'body', 'wrong_type'],
        [{ ...ok, body: 'bell \u0007' }, 'body', 'bad_format'],
        [{ ...ok, body: 'nul \u0000' }, 'body', 'bad_format'],
        [{ ...ok, visibility: 'PUBLIC' }, 'visibility', 'unknown_field'],
        [{ ...ok, body: ' \n\t\u00a0 ' }, 'body', 'fields_invalid'],
      ];
      for (const [body, field, reason] of cases) {
        refused(
          await author.site.post('/api/v1/comments', body),
          400,
          { code: 'invalid_request', field, reason },
          JSON.stringify(body).slice(0, 60),
        );
      }
      // 1,000 characters are code points, not UTF-16 units.
      const long = await author.site.post('/api/v1/comments', { ...ok, body: '😀'.repeat(1000) });
      expect(long.status, long.text).to.equal(201);
      expect([...long.body.data.body]).to.have.length(1000);
      expect(await usesOf(author.account.id)).to.equal(1);
    });

    it('answers 404 for nothing there, and uses none of the cap on a refusal', async () => {
      const owner = await namedPerson(app.client, 'cm_404_owner');
      const author = await namedPerson(app.client, 'cm_404_author');
      const post = (on: string, id: string) => author.site.post('/api/v1/comments', { on, id, body: 'Hello?' });
      for (const kind of THING_KINDS) {
        const target = await thing(owner.account.id, kind);
        const reason = NOT_FOUND_REASON[kind];
        const wrong = kind === 'list' || kind === 'screenshot' ? target.rowId : '6a1f3c2e-9b8d-4e7f-a0c1-2d3e4f5a6b7c';
        refused(await post(COMMENT_KIND[kind], wrong), 404, { code: 'not_found', reason }, kind);
        refused(await post(COMMENT_KIND[kind], 'not-an-id'), 404, { reason }, kind);
      }
      // A thing of one kind is not found under another.
      const review = await thing(owner.account.id, 'review');
      refused(await post('JOURNEY', review.id), 404, { reason: 'journey_not_found' });
      refused(await post('PROFILE', 'nobody_here'), 404, { code: 'not_found' });
      refused(await post('PROFILE', 'not a name!'), 404, { code: 'not_found' });
      expect(await usesOf(author.account.id)).to.equal(0);
      expect(await db()('comments').where({ account_id: author.account.id })).to.have.length(0);
    });

    it('takes 30 comments in a rolling hour, then 429 with retry_after until the oldest leaves the window', async () => {
      await namedPerson(app.client, 'cm_cap_owner');
      const author = await namedPerson(app.client, 'cm_cap_author');
      const post = () => author.site.post('/api/v1/comments', { on: 'PROFILE', id: 'cm_cap_owner', body: 'Again.' });
      // Uses older than the hour do not count.
      await seedUses(author.account.id, 40, 3601);
      await seedUses(author.account.id, 29, 600);
      expect((await post()).status).to.equal(201);
      const refusedNow = await post();
      refused(refusedNow, 429, { code: 'rate_limited' });
      // The oldest use in the window (10 minutes old) frees in about 50 minutes.
      expect(refusedNow.body.error.retry_after).to.be.within(2990, 3000);
      expect(refusedNow.headers.get('retry-after')).to.equal(String(refusedNow.body.error.retry_after));
      expect(await db()('comments').where({ account_id: author.account.id })).to.have.length(1);

      // The oldest use moved to 5 seconds short of the hour: the next is free in about 5 seconds.
      await ageOldestRollingUse(`comments:${author.account.id}`, 3595);
      const soon = await post();
      refused(soon, 429, { code: 'rate_limited' });
      expect(soon.body.error.retry_after).to.be.within(1, 6);
      // Out of the window, it frees one use.
      await ageOldestRollingUse(`comments:${author.account.id}`, 3700);
      expect((await post()).status).to.equal(201);
    });

    it('lets exactly the room left pass when comments arrive at once', async function () {
      this.timeout(30_000);
      await namedPerson(app.client, 'cm_par_owner');
      const author = await namedPerson(app.client, 'cm_par_author');
      await seedUses(author.account.id, 25);
      const sent = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          author.site.post('/api/v1/comments', { on: 'PROFILE', id: 'cm_par_owner', body: `At once ${i}` }),
        ),
      );
      const statuses = sent.map((res) => res.status).sort();
      expect(statuses.filter((status) => status === 201)).to.have.length(5);
      expect(statuses.filter((status) => status === 429)).to.have.length(7);
      expect(await db()('comments').where({ account_id: author.account.id })).to.have.length(5);
      expect(await usesOf(author.account.id)).to.equal(30);
    });
  });

  describe('DELETE /comments/{id}', () => {
    it('deletes for the author and for the owner of the profile or thing, and 404 for anyone else', async () => {
      const owner = await namedPerson(app.client, 'cm_del_owner');
      const author = await namedPerson(app.client, 'cm_del_author');
      const stranger = await namedPerson(app.client, 'cm_del_stranger');
      const review = await thing(owner.account.id, 'review');
      const write = async (on: string, id: string) =>
        (await author.site.post('/api/v1/comments', { on, id, body: 'Deletable.' })).body.data.id as string;
      const onReview = [await write('REVIEW', review.id), await write('REVIEW', review.id)];
      const onProfile = await write('PROFILE', 'cm_del_owner');

      for (const id of [...onReview, onProfile]) {
        refused(await stranger.site.delete(`/api/v1/comments/${id}`), 404, { reason: 'comment_not_found' });
      }
      const byAuthor = await author.site.delete(`/api/v1/comments/${onReview[0]}`);
      expect(byAuthor.status, byAuthor.text).to.equal(200);
      expect(byAuthor.body).to.deep.equal({ data: { id: onReview[0], deleted: true } });
      refused(await author.site.delete(`/api/v1/comments/${onReview[0]}`), 404, { reason: 'comment_not_found' });
      expect((await owner.site.delete(`/api/v1/comments/${onReview[1]}`)).status).to.equal(200);
      expect((await owner.site.delete(`/api/v1/comments/${onProfile}`)).status).to.equal(200);
      expect(await db()('comments').where({ account_id: author.account.id })).to.have.length(0);

      // Removed by moderation: its author can still delete it.
      const removed = await write('REVIEW', review.id);
      await db()('comments').where({ id: removed }).update({ removed_at: new Date() });
      expect((await author.site.delete(`/api/v1/comments/${removed}`)).status).to.equal(200);
      refused(await author.site.delete('/api/v1/comments/not-a-uuid'), 404, { reason: 'comment_not_found' });
    });
  });

  describe('access', () => {
    it('reads without a caller; writes need one, and keys need social.read or social.write', async () => {
      const owner = await namedPerson(app.client, 'cm_keys_owner');
      const review = await thing(owner.account.id, 'review');
      const anonymous = new SiteClient(app.client);
      const body = { on: 'REVIEW', id: review.id, body: 'By key.' };
      refused(await anonymous.post('/api/v1/comments', body), 401, { code: 'unauthorized' });
      const readAnonymously = await anonymous.get(`/api/v1/comments?on=REVIEW&id=${review.id}`);
      expect(readAnonymously.status).to.equal(200);
      expect(readAnonymously.headers.get('cache-control')).to.equal('private, no-cache');

      const reader = await keyed(app.client, owner.account.id, ['social.read']);
      refused(await reader.post('/api/v1/comments', body), 403, { code: 'insufficient_scope', scope: 'social.write' });
      const read = await reader.get(`/api/v1/comments?on=REVIEW&id=${review.id}`);
      expect(read.status).to.equal(200);
      expect(read.headers.get('cache-control')).to.equal('private, no-store');
      const writer = await keyed(app.client, owner.account.id, ['social.write']);
      refused(await writer.get(`/api/v1/comments?on=REVIEW&id=${review.id}`), 403, {
        code: 'insufficient_scope',
        scope: 'social.read',
      });
      const made = await writer.post('/api/v1/comments', body);
      expect(made.status, made.text).to.equal(201);
      expect(made.headers.get('x-ratelimit-resource')).to.equal('write');
      refused(await anonymous.delete(`/api/v1/comments/${made.body.data.id}`), 401, { code: 'unauthorized' });
      refused(await reader.delete(`/api/v1/comments/${made.body.data.id}`), 403, { scope: 'social.write' });
      expect((await writer.delete(`/api/v1/comments/${made.body.data.id}`)).status).to.equal(200);
    });

    it('refuses the query the schema sees', async () => {
      const reader = new SiteClient(app.client);
      const cases: Array<[string, string, string]> = [
        ['id=x', 'on', 'missing'],
        ['on=PROFILE', 'id', 'missing'],
        ['on=profile&id=x', 'on', 'not_allowed'],
        ['on=PROFILE&id=x&limit=0', 'limit', 'out_of_range'],
        ['on=PROFILE&id=x&limit=101', 'limit', 'out_of_range'],
        ['on=PROFILE&id=x&before=soon', 'before', 'bad_format'],
      ];
      for (const [query, field, reason] of cases) {
        refused(await reader.get(`/api/v1/comments?${query}`), 400, { code: 'invalid_request', field, reason }, query);
      }
    });
  });
});
