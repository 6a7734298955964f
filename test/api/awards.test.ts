// Awards (DECISIONS: Minerals and awards): the catalog; giving each kind of thing an award (the giver pays,
// the author gets a fifth outside the daily cap, the thing counts it, the author is notified); every
// refusal in its order (what the giver may not see, their own thing before their balance, a repeat, the
// price) and the scopes; 20 awards at once from a wallet that pays for 3; a deleted thing's awards; and
// /search/counts. Earning and the wallet: wallet.test.ts.
import { expect } from 'chai';
import { clearSearchCountCache } from '../../shared/catalog/search-counts.js';
import { db } from '../../shared/platform/db/knex.js';
import { grantMinerals } from '../../shared/wallet/wallet.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { PASSWORD } from '../helpers/factories.js';
import { namedPerson } from '../helpers/people.js';
import {
  circle,
  COMMENT_KIND,
  keyed,
  LIKEABLE,
  NOT_FOUND_REASON,
  refused,
  TABLE,
  thing,
  type Reader,
  type Thing,
} from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const MISSING = '6a1f3c2e-9b8d-4e7f-a0c1-2d3e4f5a6b7c';

describe('awards', function () {
  this.timeout(60_000);
  useCleanDatabase();
  const app = useTestApp();

  const on = (target: Thing) => ({ on: COMMENT_KIND[target.kind], id: target.id });
  const balanceOf = async (accountId: string) =>
    Number((await db()('mineral_balances').where({ account_id: accountId }).first('balance'))?.balance ?? 0);
  const ledgerSum = async (accountId: string) =>
    Number((await db()('mineral_ledger').where({ account_id: accountId }).sum({ n: 'delta' }))[0].n ?? 0);
  const awardsOf = async (target: Thing) =>
    (await db()(TABLE[target.kind]).where({ id: target.rowId }).first('awards')).awards as Record<string, number>;
  /** Award rows given by `giverId`, or given to the thing with row id `subjectId`. */
  const awardRows = (where: { giver_id: string } | { subject_id: string }) =>
    db()('awards')
      .where(where)
      .count({ n: '*' })
      .then(([row]) => Number(row.n));

  describe('GET /awards/catalog', () => {
    it('answers the eight awards, cheapest first, to anyone', async () => {
      const res = await new SiteClient(app.client).get('/api/v1/awards/catalog');
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('public, max-age=3600');
      const awards = res.body.data as Array<{ id: string; name: string; cost: number }>;
      expect(awards).to.have.length(8);
      expect(new Set(awards.map((award) => award.id)).size).to.equal(8);
      for (const award of awards) {
        expect(award).to.have.keys(['id', 'name', 'cost']);
        expect(award.cost).to.be.within(100, 2000);
      }
      const costs = awards.map((award) => award.cost);
      expect(costs).to.deep.equal([...costs].sort((a, b) => a - b));
      expect(costs[0]).to.equal(100);
      expect(costs.at(-1)).to.equal(2000);
      // A key needs no scope for it.
      const person = await namedPerson(app.client, 'catalog_reader');
      const unscoped = await keyed(app.client, person.account.id, []);
      expect((await unscoped.get('/api/v1/awards/catalog')).body).to.deep.equal(res.body);
    });
  });

  describe('POST /awards', () => {
    for (const kind of LIKEABLE) {
      it(`gives a ${kind} an award: the giver pays, the author gets a fifth, the ${kind} counts it`, async () => {
        const owner = await namedPerson(app.client, `aw_${kind}_owner`);
        const giver = await namedPerson(app.client, `aw_${kind}_giver`);
        const second = await namedPerson(app.client, `aw_${kind}_second`);
        const target = await thing(owner.account.id, kind);
        await grantMinerals(db(), giver.account.id, 1200, 'test');
        await grantMinerals(db(), second.account.id, 200, 'test');
        const before = (await owner.site.get('/api/v1/wallet')).body.data;

        const res = await giver.site.post('/api/v1/awards', { ...on(target), award: 'masterpiece' });
        expect(res.status, res.text).to.equal(201);
        expect(res.body.data).to.deep.include({
          ...on(target),
          award: 'masterpiece',
          award_name: 'Masterpiece',
          cost: 1000,
          author_credit: 200,
          awards: { masterpiece: 1 },
          balance: 200,
        });
        expect(res.body.data.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
        expect(await balanceOf(giver.account.id)).to.equal(200);
        const after = (await owner.site.get('/api/v1/wallet')).body.data;
        expect(after.balance - before.balance).to.equal(200);
        // Outside the author's daily cap and outside what posting earned today.
        expect(after.earned_today).to.equal(before.earned_today);

        const subject = { kind: COMMENT_KIND[kind], id: target.id };
        const [given] = (await giver.site.get('/api/v1/wallet/ledger')).body.data;
        expect(given).to.deep.include({ delta: -1000, reason: 'award_given', subject, award: 'masterpiece' });
        const [received] = (await owner.site.get('/api/v1/wallet/ledger')).body.data;
        expect(received).to.deep.include({ delta: 200, reason: 'award_received', subject, award: 'masterpiece' });
        const notes = await db()('notifications').where({ account_id: owner.account.id, kind: 'award' });
        expect(notes).to.have.length(1);
        expect(notes[0]).to.deep.include({
          actor_id: giver.account.id,
          subject_kind: subject.kind,
          subject_id: target.id,
          data: { award: 'masterpiece', award_name: 'Masterpiece' },
        });

        // Another giver, and another award of the first: counted by award.
        const again = await second.site.post('/api/v1/awards', { ...on(target), award: 'masterpiece' });
        refused(again, 409, { code: 'conflict', reason: 'insufficient_minerals', balance: 200, cost: 1000 });
        expect((await second.site.post('/api/v1/awards', { ...on(target), award: 'gg' })).status).to.equal(201);
        const other = await giver.site.post('/api/v1/awards', { ...on(target), award: 'gg' });
        expect(other.status, other.text).to.equal(201);
        expect(other.body.data.awards).to.deep.equal({ masterpiece: 1, gg: 2 });
        expect(await awardsOf(target)).to.deep.equal({ masterpiece: 1, gg: 2 });
      });
    }

    it('shows a thing’s awards wherever the thing is read', async () => {
      const owner = await namedPerson(app.client, 'aw_shown_owner');
      const giver = await namedPerson(app.client, 'aw_shown_giver');
      await grantMinerals(db(), giver.account.id, 2000, 'test');
      const things = await Promise.all(LIKEABLE.map((kind) => thing(owner.account.id, kind)));
      for (const target of things) {
        expect((await giver.site.post('/api/v1/awards', { ...on(target), award: 'clutch' })).status).to.equal(201);
      }
      const [review, list, screenshot, journey] = things;
      const read = async (path: string) => {
        const res = await giver.site.get(path);
        expect(res.status, `${path} ${res.text}`).to.equal(200);
        return res.body.data;
      };
      expect((await read(`/api/v1/reviews/${review.id}`)).awards).to.deep.equal({ clutch: 1 });
      expect((await read(`/api/v1/lists/${list.id}`)).awards).to.deep.equal({ clutch: 1 });
      const gallery = await read('/api/v1/profiles/aw_shown_owner/screenshots');
      expect(gallery.find((shot: any) => shot.id === screenshot.id).awards).to.deep.equal({ clutch: 1 });
      const runs = (await owner.site.get('/api/v1/journal/journeys')).body.data;
      expect(runs.find((run: any) => run.id === journey.id).awards).to.deep.equal({ clutch: 1 });
    });

    it('refuses what the schema can see: missing, unknown and wrong fields, other kinds, unknown awards', async () => {
      const owner = await namedPerson(app.client, 'aw_schema_owner');
      const giver = await namedPerson(app.client, 'aw_schema_giver');
      const review = await thing(owner.account.id, 'review');
      const body = { on: 'REVIEW', id: review.id, award: 'gg' };
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ id: review.id, award: 'gg' }, 'on', 'missing'],
        [{ on: 'REVIEW', award: 'gg' }, 'id', 'missing'],
        [{ on: 'REVIEW', id: review.id }, 'award', 'missing'],
        [{ ...body, award: 'golden_kappa' }, 'award', 'not_allowed'],
        [{ ...body, award: 7 }, 'award', 'wrong_type'],
        [{ ...body, on: 'DIARY' }, 'on', 'not_allowed'],
        [{ ...body, on: 'PROFILE' }, 'on', 'not_allowed'],
        [{ ...body, on: 'review' }, 'on', 'not_allowed'],
        [{ ...body, id: 42 }, 'id', 'wrong_type'],
        [{ ...body, id: '' }, 'id', 'too_short'],
        [{ ...body, id: 'x'.repeat(101) }, 'id', 'too_long'],
        [{ ...body, note: 'hi' }, 'note', 'unknown_field'],
      ];
      for (const [sent, field, reason] of cases) {
        refused(await giver.site.post('/api/v1/awards', sent), 400, { code: 'invalid_request', field, reason }, field);
      }
      expect(await awardRows({ subject_id: review.rowId })).to.equal(0);
    });

    it('is 404 for what the giver may not see: visibility, blocks either way, removal, no such thing', async () => {
      const world = await circle(app.client, 'aw_seen');
      for (const reader of ['follower', 'requester', 'stranger', 'blocked', 'blocker'] as const) {
        await grantMinerals(db(), world.ids[reader], 5000, 'test');
      }
      const mayAward: Record<string, Reader[]> = {
        PUBLIC: ['follower', 'requester', 'stranger'],
        FOLLOWERS: ['follower'],
        PRIVATE: [],
      };
      for (const kind of LIKEABLE) {
        for (const [visibility, allowed] of Object.entries(mayAward)) {
          const target = await thing(world.owner.id, kind, { visibility });
          for (const reader of ['follower', 'requester', 'stranger', 'blocked', 'blocker'] as const) {
            const res = await world.sites[reader].post('/api/v1/awards', { ...on(target), award: 'gg' });
            const label = `${kind} ${visibility} ${reader}`;
            if (allowed.includes(reader)) expect(res.status, `${label} ${res.text}`).to.equal(201);
            else refused(res, 404, { code: 'not_found', reason: NOT_FOUND_REASON[kind] }, label);
          }
        }
        const removed = await thing(world.owner.id, kind, { removed_at: new Date() });
        refused(await world.sites.stranger.post('/api/v1/awards', { ...on(removed), award: 'gg' }), 404, {
          reason: NOT_FOUND_REASON[kind],
        });
        const missing = kind === 'list' || kind === 'screenshot' ? 'nosuchpublic' : MISSING;
        refused(
          await world.sites.stranger.post('/api/v1/awards', { on: COMMENT_KIND[kind], id: missing, award: 'gg' }),
          404,
          { reason: NOT_FOUND_REASON[kind] },
        );
      }
      refused(await world.sites.stranger.post('/api/v1/awards', { on: 'REVIEW', id: 'not-a-uuid', award: 'gg' }), 404, {
        reason: 'review_not_found',
      });
      // Each refused award cost nothing.
      expect(await balanceOf(world.ids.stranger)).to.equal(5000 - 4 * 100);
      expect(await balanceOf(world.ids.blocked)).to.equal(5000);
    });

    it('refuses one’s own thing before the balance, a repeat, and a price above the balance, changing nothing', async () => {
      const owner = await namedPerson(app.client, 'aw_refuse_owner');
      const giver = await namedPerson(app.client, 'aw_refuse_giver');
      const review = await thing(owner.account.id, 'review');
      const own = await owner.site.post('/api/v1/awards', { ...on(review), award: 'hall_of_fame' });
      refused(own, 400, { code: 'invalid_request', reason: 'own_content' });

      const poor = await giver.site.post('/api/v1/awards', { ...on(review), award: 'gg' });
      refused(poor, 409, { code: 'conflict', reason: 'insufficient_minerals', balance: 0, cost: 100 });
      await grantMinerals(db(), giver.account.id, 340, 'test');
      const short = await giver.site.post('/api/v1/awards', { ...on(review), award: 'hidden_gem' });
      refused(short, 409, { code: 'conflict', reason: 'insufficient_minerals', balance: 340, cost: 500 });
      expect(await awardRows({ subject_id: review.rowId })).to.equal(0);
      expect(await awardsOf(review)).to.deep.equal({});
      expect(await balanceOf(owner.account.id)).to.equal(10);
      expect(await db()('notifications').where({ kind: 'award', account_id: owner.account.id })).to.deep.equal([]);

      expect((await giver.site.post('/api/v1/awards', { ...on(review), award: 'stunning' })).status).to.equal(201);
      const repeat = await giver.site.post('/api/v1/awards', { ...on(review), award: 'stunning' });
      refused(repeat, 409, { code: 'conflict', reason: 'already_awarded' });
      expect(await balanceOf(giver.account.id)).to.equal(40);
      expect(await balanceOf(owner.account.id)).to.equal(70);
      expect(await awardsOf(review)).to.deep.equal({ stunning: 1 });
    });

    it('takes social.write, charges the write allowance, and refuses anonymous callers', async () => {
      const owner = await namedPerson(app.client, 'aw_scope_owner');
      const giver = await namedPerson(app.client, 'aw_scope_giver');
      const list = await thing(owner.account.id, 'list');
      await grantMinerals(db(), giver.account.id, 100, 'test');
      const body = { ...on(list), award: 'gg' };
      refused(await new SiteClient(app.client).post('/api/v1/awards', body), 401, { code: 'unauthorized' });
      const unscoped = await keyed(app.client, giver.account.id, ['social.read', 'profile.read']);
      refused(await unscoped.post('/api/v1/awards', body), 403, { code: 'insufficient_scope', scope: 'social.write' });
      const scopedKey = await keyed(app.client, giver.account.id, ['social.write']);
      const res = await scopedKey.post('/api/v1/awards', body);
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('x-ratelimit-resource')).to.equal('write');
      expect(res.body.data.balance).to.equal(0);
    });
  });

  describe('under concurrency', () => {
    it('gives exactly 3 of 20 awards sent at once from a wallet that pays for 3, never below zero', async () => {
      const giver = await namedPerson(app.client, 'aw_race_giver');
      const owners = await Promise.all([1, 2, 3, 4].map((n) => namedPerson(app.client, `aw_race_owner${n}`)));
      const targets = await Promise.all(
        Array.from({ length: 20 }, (_, i) => thing(owners[i % 4].account.id, LIKEABLE[i % 4])),
      );
      await grantMinerals(db(), giver.account.id, 300, 'test');
      const sent = await Promise.all(
        targets.map((target) => giver.site.post('/api/v1/awards', { ...on(target), award: 'gg' })),
      );
      const statuses = sent.map((res) => res.status);
      expect(statuses.filter((status) => status === 201)).to.have.length(3);
      expect(statuses.filter((status) => status === 409)).to.have.length(17);
      for (const res of sent.filter((each) => each.status === 409)) {
        expect(res.body.error).to.include({ reason: 'insufficient_minerals', cost: 100 });
        expect(res.body.error.balance).to.be.below(100);
      }
      expect(
        sent
          .filter((res) => res.status === 201)
          .map((res) => res.body.data.balance)
          .sort(),
      ).to.deep.equal([0, 100, 200]);
      expect(await balanceOf(giver.account.id)).to.equal(0);
      expect(await ledgerSum(giver.account.id)).to.equal(0);
      expect(await awardRows({ giver_id: giver.account.id })).to.equal(3);
      const counted = await Promise.all(targets.map(awardsOf));
      expect(counted.reduce((sum, awards) => sum + (awards.gg ?? 0), 0)).to.equal(3);
    });

    it('gives one award however often the same one is sent at once, and lets two people award each other', async () => {
      const owner = await namedPerson(app.client, 'aw_same_owner');
      const giver = await namedPerson(app.client, 'aw_same_giver');
      const review = await thing(owner.account.id, 'review');
      await grantMinerals(db(), giver.account.id, 5000, 'test');
      const sent = await Promise.all(
        Array.from({ length: 10 }, () => giver.site.post('/api/v1/awards', { ...on(review), award: 'legendary' })),
      );
      expect(sent.filter((res) => res.status === 201)).to.have.length(1);
      for (const res of sent.filter((each) => each.status !== 201)) {
        refused(res, 409, { reason: 'already_awarded' });
      }
      expect(await balanceOf(giver.account.id)).to.equal(4250);
      expect(await awardsOf(review)).to.deep.equal({ legendary: 1 });

      // Each awards the other's things at once: the balance rows are taken in one order, so nobody waits forever.
      const ownerThings = await Promise.all(LIKEABLE.map((kind) => thing(owner.account.id, kind)));
      const giverThings = await Promise.all(LIKEABLE.map((kind) => thing(giver.account.id, kind)));
      await grantMinerals(db(), owner.account.id, 1000, 'test');
      const crossed = await Promise.all([
        ...ownerThings.map((target) => giver.site.post('/api/v1/awards', { ...on(target), award: 'pixel_perfect' })),
        ...giverThings.map((target) => owner.site.post('/api/v1/awards', { ...on(target), award: 'pixel_perfect' })),
      ]);
      expect(crossed.map((res) => res.status)).to.deep.equal(crossed.map(() => 201));
      expect(await ledgerSum(owner.account.id)).to.equal(await balanceOf(owner.account.id));
      expect(await ledgerSum(giver.account.id)).to.equal(await balanceOf(giver.account.id));
    });
  });

  describe('when things and givers go', () => {
    it('a deleted thing takes its awards from view and refunds no one', async () => {
      const owner = await namedPerson(app.client, 'aw_gone_owner');
      const giver = await namedPerson(app.client, 'aw_gone_giver');
      const review = await thing(owner.account.id, 'review');
      await grantMinerals(db(), giver.account.id, 100, 'test');
      expect((await giver.site.post('/api/v1/awards', { ...on(review), award: 'gg' })).status).to.equal(201);
      expect((await owner.site.delete(`/api/v1/reviews/${review.id}`)).status).to.equal(200);
      expect(await awardRows({ subject_id: review.rowId })).to.equal(0);
      expect(await balanceOf(giver.account.id)).to.equal(0);
      // The author keeps the credit; the review's posting earnings are taken back.
      expect(await balanceOf(owner.account.id)).to.equal(20);
      const reasons = (await owner.site.get('/api/v1/wallet/ledger')).body.data.map((row: any) => row.reason);
      expect(reasons).to.deep.equal(['taken_back', 'award_received', 'posted']);
    });

    it('a giver’s data deletion or account deletion takes their awards off each count', async () => {
      const owner = await namedPerson(app.client, 'aw_leave_owner');
      const leaving = await namedPerson(app.client, 'aw_leave_giver');
      const closing = await namedPerson(app.client, 'aw_leave_closing');
      const staying = await namedPerson(app.client, 'aw_leave_staying');
      const list = await thing(owner.account.id, 'list');
      for (const person of [leaving, closing, staying]) {
        await grantMinerals(db(), person.account.id, 100, 'test');
        expect((await person.site.post('/api/v1/awards', { ...on(list), award: 'gg' })).status).to.equal(201);
      }
      expect(await awardsOf(list)).to.deep.equal({ gg: 3 });
      const res = await leaving.site.delete('/api/v1/account/data?category=everything', {
        body: { password: PASSWORD },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.removed).to.deep.include({ awards: 1 });
      expect(await awardsOf(list)).to.deep.equal({ gg: 2 });
      await db()('accounts').where({ id: closing.account.id }).delete();
      expect(await awardsOf(list)).to.deep.equal({ gg: 1 });
      expect(await balanceOf(owner.account.id)).to.equal(5 + 3 * 20);
    });
  });

  describe('/search/counts', () => {
    it('counts public things with at least one award, matched by their text with `q`', async () => {
      const owner = await namedPerson(app.client, 'aw_count_owner');
      const giver = await namedPerson(app.client, 'aw_count_giver');
      await grantMinerals(db(), giver.account.id, 2000, 'test');
      // Things awarded by the tests before count too: the tab is read against what they left.
      const counts = async (q = '') => {
        clearSearchCountCache();
        const res = await app.client.get(`/api/v1/search/counts${q ? `?q=${encodeURIComponent(q)}` : ''}`);
        expect(res.status, res.text).to.equal(200);
        return res.body.data.awards as number;
      };
      const review = await thing(owner.account.id, 'review', { body: 'Çeleste’s summit at dawn' });
      await thing(owner.account.id, 'review', { body: 'Not awarded summit' });
      const list = await thing(owner.account.id, 'list', { title: 'Climbing games' });
      const journey = await thing(owner.account.id, 'journey', { title: 'Summit run' });
      const shot = await thing(owner.account.id, 'screenshot', { description: 'The summit' });
      const hidden = await thing(owner.account.id, 'review', { body: 'Summit for friends', visibility: 'FOLLOWERS' });
      const removed = await thing(owner.account.id, 'list', { title: 'Summit list' });
      const before = await counts();
      expect(await counts('summit')).to.equal(0);
      await db()('follows').insert({ follower_id: giver.account.id, followee_id: owner.account.id });
      for (const target of [review, list, journey, shot, hidden, removed]) {
        expect((await giver.site.post('/api/v1/awards', { ...on(target), award: 'gg' })).status).to.equal(201);
      }
      await db()('lists').where({ id: removed.rowId }).update({ removed_at: new Date() });
      expect(await counts()).to.equal(before + 4);
      expect(await counts('SUMMIT')).to.equal(3);
      expect(await counts('celeste')).to.equal(1);
      expect(await counts('nothing like it')).to.equal(0);
      // Two awards on one thing count it once.
      expect((await giver.site.post('/api/v1/awards', { ...on(review), award: 'clutch' })).status).to.equal(201);
      expect(await counts()).to.equal(before + 4);
    });
  });
});
