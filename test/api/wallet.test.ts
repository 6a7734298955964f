// Minerals (DECISIONS: Minerals and awards): what posting earns (a review 10, a list 5, a screenshot 2, a
// closed session 2), the daily cap of 50 (also under parallel posts), what a deletion takes back (never
// below zero), levels, GET /wallet and GET /wallet/ledger, and the demo seed's ledger. Awards:
// awards.test.ts; the operator's grant: test/processes/op-minerals.test.ts.
import { expect } from 'chai';
import { seedDemoPeople } from '../../db/seeds/demo-people.js';
import { db } from '../../shared/platform/db/knex.js';
import { levelFor } from '../../shared/wallet/level-rules.js';
import { DAILY_CAP } from '../../shared/wallet/rows.js';
import { grantMinerals } from '../../shared/wallet/wallet.js';
import { uploadCapture } from '../helpers/captures.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, PASSWORD } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { fromNow } from '../helpers/journal.js';
import { catalogGame, namedPerson } from '../helpers/people.js';
import { keyed, refused } from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Person = Awaited<ReturnType<typeof namedPerson>>;

describe('minerals: earning and the wallet', function () {
  this.timeout(60_000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);
  let gameId: number;

  before(async () => {
    gameId = (await catalogGame({ name: 'Celeste', slug: 'celeste-minerals' })).id;
  });

  const wallet = async (person: Person) => {
    const res = await person.site.get('/api/v1/wallet');
    expect(res.status, res.text).to.equal(200);
    return res.body.data;
  };
  const ledger = async (person: Person, query = '') => {
    const res = await person.site.get(`/api/v1/wallet/ledger${query}`);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };
  const postReview = async (person: Person): Promise<TestResponse> => {
    const res = await person.site.post('/api/v1/reviews', { game_id: gameId, body: 'A climb worth every fall.' });
    expect(res.status, res.text).to.equal(201);
    return res;
  };
  const postList = async (person: Person): Promise<TestResponse> => {
    const res = await person.site.post('/api/v1/lists', { title: 'Mountains' });
    expect(res.status, res.text).to.equal(201);
    return res;
  };
  const ledgerSum = async (accountId: string) =>
    Number((await db()('mineral_ledger').where({ account_id: accountId }).sum({ n: 'delta' }))[0].n ?? 0);
  const balanceRow = (accountId: string) => db()('mineral_balances').where({ account_id: accountId }).first();
  /** The day of the account's posting moved back a day: its cap starts again. */
  const nextDay = (accountId: string) =>
    db()('mineral_balances')
      .where({ account_id: accountId })
      .update({ posted_on: db().raw("posted_on - interval '1 day'") });

  describe('earning', () => {
    it('earns for each kind posted: a review 10, a list 5, a screenshot 2, a closed session 2', async () => {
      const poster = await namedPerson(app.client, 'earn_all');
      const review = (await postReview(poster)).body.data;
      expect(await wallet(poster)).to.deep.include({ balance: 10, earned_today: 10, lifetime: 10 });
      const list = (await postList(poster)).body.data;
      const shot = await uploadCapture(poster.site, { game_id: String(gameId) });
      expect(shot.status, shot.text).to.equal(201);
      const closed = await poster.site.post('/api/v1/journal/sessions', {
        game_id: gameId,
        started_at: fromNow(-90),
        ended_at: fromNow(-30),
      });
      expect(closed.status, closed.text).to.equal(201);
      // A journey and a library entry earn nothing.
      const run = await poster.site.post('/api/v1/journal/journeys', {
        game_id: gameId,
        title: 'Summit',
        started_at: fromNow(-100),
      });
      expect(run.status, run.text).to.equal(201);
      expect((await poster.site.put(`/api/v1/library/${gameId}`, { status: 'PLAYING' })).status).to.equal(201);

      expect(await wallet(poster)).to.deep.equal({
        balance: 19,
        level: 1,
        lifetime: 19,
        earned_today: 19,
        daily_cap: DAILY_CAP,
        next_level_at: 100,
      });
      const page = await ledger(poster);
      expect(page.has_more).to.equal(false);
      expect(page.next_before).to.equal(null);
      expect(page.data.map((row: any) => [row.delta, row.reason, row.subject])).to.deep.equal([
        [2, 'posted', { kind: 'DIARY', id: closed.body.data.id }],
        [2, 'posted', { kind: 'SCREENSHOT', id: shot.body.data.id }],
        [5, 'posted', { kind: 'LIST', id: list.id }],
        [10, 'posted', { kind: 'REVIEW', id: review.id }],
      ]);
      expect(page.data[0]).to.have.keys(['delta', 'reason', 'subject', 'award', 'note', 'created_at']);
      expect(page.data[0].created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    });

    it('earns for a session when it is first closed, not again when it is reopened and closed', async () => {
      const player = await namedPerson(app.client, 'earn_session');
      const live = await player.site.post('/api/v1/journal/sessions', { game_id: gameId, started_at: fromNow(-60) });
      expect(live.status, live.text).to.equal(201);
      expect((await wallet(player)).balance).to.equal(0);
      const path = `/api/v1/journal/sessions/${live.body.data.id}`;
      expect((await player.site.patch(path, { ended_at: fromNow(-1) })).status).to.equal(200);
      expect((await wallet(player)).balance).to.equal(2);
      expect((await player.site.patch(path, { ended_at: null })).status).to.equal(200);
      expect((await player.site.patch(path, { ended_at: fromNow(0) })).status).to.equal(200);
      expect(await wallet(player)).to.deep.include({ balance: 2, earned_today: 2 });
      expect((await ledger(player)).data).to.have.length(1);
    });

    it(`stops at ${DAILY_CAP} a UTC day, and starts again the next day; grants are outside the cap`, async () => {
      const poster = await namedPerson(app.client, 'earn_cap');
      for (let i = 0; i < 4; i += 1) await postReview(poster);
      await postList(poster);
      expect(await wallet(poster)).to.deep.include({ balance: 45, earned_today: 45 });
      // 5 of the review's 10 are left under the cap; then nothing, and no row.
      await postReview(poster);
      await postReview(poster);
      expect(await wallet(poster)).to.deep.include({ balance: DAILY_CAP, earned_today: DAILY_CAP });
      expect((await ledger(poster)).data.map((row: any) => row.delta)).to.deep.equal([5, 5, 10, 10, 10, 10]);

      await grantMinerals(db(), poster.account.id, 30, 'Summer event');
      expect(await wallet(poster)).to.deep.include({ balance: 80, earned_today: DAILY_CAP, lifetime: 80 });

      await nextDay(poster.account.id);
      expect((await wallet(poster)).earned_today).to.equal(0);
      await postReview(poster);
      expect(await wallet(poster)).to.deep.include({ balance: 90, earned_today: 10 });
    });

    it('holds the cap under parallel posts: two reviews at 45 earned give 50, eight at 0 give 50', async () => {
      const people = await Promise.all([1, 2, 3, 4].map((n) => namedPerson(app.client, `earn_race_${n}`)));
      await Promise.all(
        people.map(async (person) => {
          for (let i = 0; i < 4; i += 1) await postReview(person);
          await postList(person);
        }),
      );
      await Promise.all(people.flatMap((person) => [postReview(person), postReview(person)]));
      for (const person of people) {
        expect(await wallet(person), person.account.id).to.deep.include({ balance: 50, earned_today: 50 });
        expect(await ledgerSum(person.account.id)).to.equal(50);
      }

      const burst = await namedPerson(app.client, 'earn_burst');
      await Promise.all(Array.from({ length: 8 }, () => postReview(burst)));
      expect(await wallet(burst)).to.deep.include({ balance: 50, earned_today: 50 });
      expect((await ledger(burst)).data.map((row: any) => row.delta)).to.deep.equal([10, 10, 10, 10, 10]);
      // What posting asked counts on until it reaches the cap; past it, posts look and skip the locked way
      // (migration minerals_capped_first), so the count stops somewhere from 50 to 80.
      const asked = (await balanceRow(burst.account.id)).posted_today;
      expect(asked).to.be.at.least(50).and.at.most(80);

      // At the cap, a post writes nothing to the ledger and leaves the balance row as it was.
      const before = await balanceRow(burst.account.id);
      await postReview(burst);
      expect(await balanceRow(burst.account.id)).to.deep.equal(before);
      expect(await ledgerSum(burst.account.id)).to.equal(50);
    });
  });

  describe('take-backs', () => {
    it('takes back what the deleted thing earned, and only that', async () => {
      const poster = await namedPerson(app.client, 'back_own');
      const kept = (await postReview(poster)).body.data;
      const gone = (await postReview(poster)).body.data;
      expect((await poster.site.delete(`/api/v1/reviews/${gone.id}`)).status).to.equal(200);
      expect(await wallet(poster)).to.deep.include({ balance: 10, lifetime: 10, earned_today: 20 });
      const rows = (await ledger(poster)).data;
      expect(rows[0]).to.deep.include({ delta: -10, reason: 'taken_back', subject: { kind: 'REVIEW', id: gone.id } });
      expect(rows.map((row: any) => row.subject.id)).to.include(kept.id);

      // A thing that earned 5 under the cap gives back 5; one that earned nothing gives back nothing.
      for (let i = 0; i < 2; i += 1) await postReview(poster);
      await postList(poster);
      const capped = (await postReview(poster)).body.data;
      const over = (await postReview(poster)).body.data;
      expect(await wallet(poster)).to.deep.include({ balance: 40, earned_today: 50 });
      await poster.site.delete(`/api/v1/reviews/${over.id}`);
      expect((await wallet(poster)).balance).to.equal(40);
      await poster.site.delete(`/api/v1/reviews/${capped.id}`);
      expect((await wallet(poster)).balance).to.equal(35);
      // Deleting does not give the day's room back.
      await postReview(poster);
      expect(await wallet(poster)).to.deep.include({ balance: 35, earned_today: 50 });
    });

    it('never takes the balance below zero: at most what is left is taken back', async () => {
      const poster = await namedPerson(app.client, 'back_floor');
      const review = (await postReview(poster)).body.data;
      const list = (await postList(poster)).body.data;
      // Spent 12 of the 15 (a debit row, as an award writes one).
      await db()('mineral_ledger').insert({ account_id: poster.account.id, delta: -12, reason: 'award_given' });
      await poster.site.delete(`/api/v1/reviews/${review.id}`);
      expect(await wallet(poster)).to.deep.include({ balance: 0, lifetime: 12 });
      await poster.site.delete(`/api/v1/lists/${list.id}`);
      expect((await wallet(poster)).balance).to.equal(0);
      expect((await ledger(poster)).data.map((row: any) => row.delta)).to.deep.equal([-3, -12, 5, 10]);
      expect(await ledgerSum(poster.account.id)).to.equal(0);
    });

    it('takes back what a category’s deletion took, but nothing for moderation’s removal', async () => {
      const poster = await namedPerson(app.client, 'back_category');
      const removed = (await postReview(poster)).body.data;
      await postReview(poster);
      await postList(poster);
      await db()('reviews').where({ id: removed.id }).update({ removed_at: new Date() });
      expect((await wallet(poster)).balance).to.equal(25);
      const res = await poster.site.delete('/api/v1/account/data?category=reviews', { body: { password: PASSWORD } });
      expect(res.status, res.text).to.equal(200);
      expect(await wallet(poster)).to.deep.include({ balance: 5, lifetime: 5 });
      expect(await ledgerSum(poster.account.id)).to.equal(5);
    });

    it('lets an account with earnings be deleted: its ledger and balance go with it', async () => {
      const poster = await namedPerson(app.client, 'back_account');
      await postReview(poster);
      await postList(poster);
      await db()('accounts').where({ id: poster.account.id }).delete();
      expect(await db()('mineral_ledger').where({ account_id: poster.account.id })).to.deep.equal([]);
      expect(await balanceRow(poster.account.id)).to.equal(undefined);
    });
  });

  describe('levels', () => {
    it('rises as lifetime earnings pass 100, 300, 600, 1000; spending keeps it, a take-back can lower it', async () => {
      const person = await namedPerson(app.client, 'level_up');
      await grantMinerals(db(), person.account.id, 95, 'welcome');
      expect(await wallet(person)).to.deep.include({ level: 1, next_level_at: 100 });
      const review = (await postReview(person)).body.data;
      expect(await wallet(person)).to.deep.include({ lifetime: 105, level: 2, next_level_at: 300 });
      await grantMinerals(db(), person.account.id, 895, 'tournament');
      expect(await wallet(person)).to.deep.include({ balance: 1000, lifetime: 1000, level: 5, next_level_at: 1500 });
      await db()('mineral_ledger').insert({ account_id: person.account.id, delta: -995, reason: 'award_given' });
      expect(await wallet(person)).to.deep.include({ balance: 5, lifetime: 1000, level: 5 });
      await person.site.delete(`/api/v1/reviews/${review.id}`);
      expect(await wallet(person)).to.deep.include({ balance: 0, lifetime: 995, level: 4 });
      // The public view shows the same balance and level.
      const shown = await app.client.get('/api/v1/profiles/level_up/minerals');
      expect(shown.body.data).to.deep.equal({ username: 'level_up', balance: 0, level: 4 });
    });

    it('is computed alike by the database and the rules', async () => {
      const lifetimes = [...Array.from({ length: 2200 }, (_, i) => i), 4999, 5000, 5001, 499_999, 500_000, 123_456_789];
      const { rows } = await db().raw('SELECT x, mineral_level(x) AS level FROM unnest(?::bigint[]) x', [lifetimes]);
      const levels = rows.map((row: { level: number }) => row.level);
      expect(levels).to.deep.equal(lifetimes.map(levelFor));
    });
  });

  describe('GET /wallet and GET /wallet/ledger', () => {
    it('answers the starting point to someone who never earned', async () => {
      const person = await namedPerson(app.client, 'wallet_new');
      expect(await wallet(person)).to.deep.equal({
        balance: 0,
        level: 1,
        lifetime: 0,
        earned_today: 0,
        daily_cap: DAILY_CAP,
        next_level_at: 100,
      });
      expect(await ledger(person)).to.deep.equal({ data: [], has_more: false, next_before: null });
    });

    it('pages the ledger newest first by `before`, and shows each person only their own', async () => {
      const person = await namedPerson(app.client, 'ledger_pages');
      const other = await namedPerson(app.client, 'ledger_other');
      await grantMinerals(db(), other.account.id, 7, 'not yours');
      // Rows of two instants: grants 1 and 2 an hour ago (one instant), 3 to 5 later, a minute apart.
      const hourAgo = new Date(Date.now() - 3_600_000);
      const at = [hourAgo, hourAgo, ...[3, 2, 1].map((minutes) => new Date(Date.now() - minutes * 60_000))];
      for (const [i, created_at] of at.entries()) {
        await db()('mineral_ledger').insert({
          account_id: person.account.id,
          delta: i + 1,
          reason: 'grant',
          note: `grant ${i + 1}`,
          created_at,
        });
      }

      const first = await ledger(person, '?limit=2');
      expect(first.data.map((row: any) => row.note)).to.deep.equal(['grant 5', 'grant 4']);
      expect(first.has_more).to.equal(true);
      const second = await ledger(person, `?limit=2&before=${first.next_before}`);
      // The page would end inside the instant of grants 1 and 2: it stops before it.
      expect(second.data.map((row: any) => row.note)).to.deep.equal(['grant 3']);
      const third = await ledger(person, `?limit=2&before=${second.next_before}`);
      expect(third.data.map((row: any) => row.note).sort()).to.deep.equal(['grant 1', 'grant 2']);
      expect(third).to.deep.include({ has_more: false, next_before: null });
      expect(third.data[0]).to.deep.include({ reason: 'grant', subject: null, award: null });
    });

    it('refuses limits out of bounds, a `before` that is not a time, and callers without profile.read', async () => {
      const person = await namedPerson(app.client, 'ledger_refusals');
      for (const [query, reason] of [
        ['?limit=0', 'out_of_range'],
        ['?limit=101', 'out_of_range'],
        ['?limit=ten', 'wrong_type'],
      ]) {
        refused(await person.site.get(`/api/v1/wallet/ledger${query}`), 400, { field: 'limit', reason }, query);
      }
      refused(await person.site.get('/api/v1/wallet/ledger?before=yesterday'), 400, { field: 'before' });
      for (const path of ['/api/v1/wallet', '/api/v1/wallet/ledger']) {
        refused(await new SiteClient(app.client).get(path), 401, { code: 'unauthorized' }, path);
        const unscoped = await keyed(app.client, person.account.id, ['social.read']);
        refused(await unscoped.get(path), 403, { code: 'insufficient_scope', scope: 'profile.read' }, path);
      }
      await grantMinerals(db(), person.account.id, 12, 'keyed');
      const { token } = await appWithKey(person.account.id, ['profile.read']);
      const headers = { authorization: `Bearer ${token}` };
      const byKey = await app.client.get('/api/v1/wallet', { headers });
      expect(byKey.status, byKey.text).to.equal(200);
      expect(byKey.body.data.balance).to.equal(12);
      expect(byKey.headers.get('x-ratelimit-resource')).to.equal('read');
      const rows = await app.client.get('/api/v1/wallet/ledger', { headers });
      expect(rows.body.data.map((row: any) => row.note)).to.deep.equal(['keyed']);
    });
  });

  describe('the demo seed', () => {
    it('writes each demo person’s minerals as ledger rows: every balance is its ledger’s sum', async () => {
      for (let i = 0; i < 30; i += 1) await catalogGame({ popularity: 30 - i });
      const seeded = await seedDemoPeople(db(), { accounts: 12, entriesPerAccount: 20 });
      expect(seeded.accounts).to.equal(12);
      const { rows } = await db().raw(`
        SELECT b.account_id, b.balance, b.level, b.lifetime,
          (SELECT coalesce(sum(delta), 0) FROM mineral_ledger e WHERE e.account_id = b.account_id) AS summed,
          (SELECT count(*) FROM mineral_ledger e WHERE e.account_id = b.account_id AND e.reason = 'opening') AS openings
        FROM mineral_balances b JOIN accounts a ON a.id = b.account_id WHERE a.username LIKE 'demo\\_%'`);
      expect(rows.length).to.be.at.least(10);
      for (const row of rows) {
        expect(Number(row.balance), row.account_id).to.equal(Number(row.summed));
        expect(Number(row.balance)).to.be.at.least(0);
        expect(row.level).to.equal(levelFor(Number(row.lifetime)));
        expect(Number(row.openings)).to.equal(1);
      }
      expect(new Set(rows.map((row: { level: number }) => row.level)).size).to.be.greaterThan(3);
    });
  });
});
