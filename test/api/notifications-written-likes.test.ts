// A like's notification (DECISIONS: Notifications): the owner is told of a like of each likeable kind;
// likes on one thing within an hour of the first collapse into one notification whose data.count grows,
// whose time and actor move to the latest like and which becomes unread again; 20 parallel likes by 20
// people make exactly one with count 20, also when they open a new window; a like after the hour starts a
// new one (stored times moved back, never slept); unliking removes nothing.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { NOTIFICATION_CHANNEL } from '../../shared/notifications/rows.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { toldTo } from '../helpers/notifications-written.js';
import { namedPerson } from '../helpers/people.js';
import { COMMENT_KIND, keyed, LIKEABLE, thing, type Thing } from '../helpers/social-things.js';
import { useTestApp } from '../helpers/test-app.js';

const MINUTE = 60_000;

describe('notifications: likes and their collapsing', () => {
  useCleanDatabase();
  const app = useTestApp();

  const likeRows = (ownerId: string) =>
    db()('notifications')
      .where({ account_id: ownerId, kind: 'like' })
      .orderBy('collapse_started_at')
      .select('id', 'actor_id', 'data', 'collapse_key', 'created_at', 'collapse_started_at', 'read_at', 'seq');

  /** Moves the window (its start and its time) `minutes` further into the past. */
  const age = (ownerId: string, minutes: number) =>
    db()('notifications')
      .where({ account_id: ownerId, kind: 'like' })
      .whereNotNull('collapse_key')
      .update({
        collapse_started_at: db().raw('collapse_started_at - make_interval(mins => ?)', [minutes]),
        created_at: db().raw('created_at - make_interval(mins => ?)', [minutes]),
      });

  const like = (site: { put(path: string): Promise<{ status: number; text: string }> }, target: Thing) =>
    site.put(`/api/v1/likes/${target.kind}/${target.id}`).then((res) => {
      expect(res.status, res.text).to.equal(200);
    });

  it('tells the owner of a like of each likeable kind, once however often it is repeated', async () => {
    const owner = await namedPerson(app.client, 'nl_owner');
    const fan = await namedPerson(app.client, 'nl_fan');
    const expected = [];
    for (const kind of LIKEABLE) {
      const target = await thing(owner.account.id, kind);
      await like(fan.site, target);
      await like(fan.site, target);
      expected.push({
        kind: 'like',
        actor_id: fan.account.id,
        subject: { kind: COMMENT_KIND[kind], id: target.id },
        data: { count: 1 },
      });
    }
    expect(await toldTo(owner.account.id)).to.deep.equal(expected);
    expect(await toldTo(fan.account.id)).to.deep.equal([]);
  });

  it('collapses the likes of one thing within the hour: count, time and actor move, and it is unread again', async () => {
    const owner = await namedPerson(app.client, 'nl_col_owner');
    const [first, second] = [await namedPerson(app.client, 'nl_col_a'), await namedPerson(app.client, 'nl_col_b')];
    const review = await thing(owner.account.id, 'review');
    const other = await thing(owner.account.id, 'review');
    await like(first.site, review);
    await age(owner.account.id, 10);
    await db()('notifications').where({ account_id: owner.account.id }).update({ read_at: new Date() });
    const [before] = await likeRows(owner.account.id);

    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      await listener.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
      // Only people with a stream open are announced (migration notification_listeners).
      await db()('notification_listeners').insert({ account_id: owner.account.id, listener: randomUUID() });
      await like(second.site, review);
      for (let i = 0; i < 40 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard, 'a collapse is announced like a new notification').to.include(owner.account.id);
    } finally {
      await listener.end();
    }

    const [after, ...none] = await likeRows(owner.account.id);
    expect(none).to.deep.equal([]);
    expect(after).to.deep.include({ id: before.id, actor_id: second.account.id, data: { count: 2 }, read_at: null });
    expect(after.created_at.getTime()).to.be.greaterThan(before.created_at.getTime() + 9 * MINUTE);
    expect(after.collapse_started_at.getTime(), 'the window keeps its start').to.equal(
      before.collapse_started_at.getTime(),
    );
    expect(Number(after.seq)).to.be.greaterThan(Number(before.seq));

    // Taking a like back removes nothing; liking again counts again; another thing has its own.
    expect((await first.site.delete(`/api/v1/likes/review/${review.id}`)).status).to.equal(200);
    expect((await likeRows(owner.account.id))[0].data).to.deep.equal({ count: 2 });
    await like(first.site, review);
    await like(first.site, other);
    const told = await toldTo(owner.account.id);
    expect(told.map((row) => [row.subject!.id, row.data.count])).to.deep.equal([
      [review.id, 3],
      [other.id, 1],
    ]);
  });

  it('gives exactly one notification with count 20 for 20 parallel likes by 20 people', async function () {
    this.timeout(60_000);
    const owner = await namedPerson(app.client, 'nl_par_owner');
    const list = await thing(owner.account.id, 'list');
    const fans = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const { account } = await buildAccount({ password: null });
        return { id: account.id, site: await keyed(app.client, account.id, ['social.write']) };
      }),
    );
    await Promise.all(fans.map((fan) => like(fan.site, list)));
    const rows = await likeRows(owner.account.id);
    expect(rows).to.have.length(1);
    expect(rows[0].data).to.deep.equal({ count: 20 });
    expect(fans.map((fan) => fan.id)).to.include(rows[0].actor_id);
  });

  it('starts a new notification 61 minutes after the window started, and still collapses at 59', async () => {
    const owner = await namedPerson(app.client, 'nl_win_owner');
    const fans = await Promise.all(
      ['nl_win_a', 'nl_win_b', 'nl_win_c', 'nl_win_d'].map((n) => namedPerson(app.client, n)),
    );
    const screenshot = await thing(owner.account.id, 'screenshot');
    await like(fans[0].site, screenshot);
    await age(owner.account.id, 59);
    await like(fans[1].site, screenshot);
    expect((await likeRows(owner.account.id)).map((row) => row.data.count)).to.deep.equal([2]);

    // The window started 61 minutes ago, though its last like was 2 minutes ago.
    await age(owner.account.id, 2);
    await like(fans[2].site, screenshot);
    await like(fans[3].site, screenshot);
    const [old, fresh, ...none] = await likeRows(owner.account.id);
    expect(none).to.deep.equal([]);
    expect(old).to.deep.include({ actor_id: fans[1].account.id, data: { count: 2 }, collapse_key: null });
    expect(fresh).to.deep.include({ actor_id: fans[3].account.id, data: { count: 2 } });
    expect(fresh.collapse_key).to.equal(`like:SCREENSHOT:${screenshot.id}`);
  });

  it('opens one new window for 20 parallel likes arriving after the hour', async function () {
    this.timeout(60_000);
    const owner = await namedPerson(app.client, 'nl_parwin_owner');
    const journey = await thing(owner.account.id, 'journey');
    const fans = await Promise.all(
      Array.from({ length: 21 }, async () => {
        const { account } = await buildAccount({ password: null });
        return keyed(app.client, account.id, ['social.write']);
      }),
    );
    await like(fans[0], journey);
    await age(owner.account.id, 61);
    await Promise.all(fans.slice(1).map((fan) => like(fan, journey)));
    expect((await likeRows(owner.account.id)).map((row) => row.data.count)).to.deep.equal([1, 20]);
  });

  it('keeps the likes of different things and of different owners apart', async () => {
    const [one, two] = [await namedPerson(app.client, 'nl_apart_1'), await namedPerson(app.client, 'nl_apart_2')];
    const fan = await namedPerson(app.client, 'nl_apart_fan');
    const things = [
      await thing(one.account.id, 'review'),
      await thing(one.account.id, 'list'),
      await thing(two.account.id, 'review'),
    ];
    for (const target of things) await like(fan.site, target);
    expect((await toldTo(one.account.id)).map((row) => row.data.count)).to.deep.equal([1, 1]);
    expect((await toldTo(two.account.id)).map((row) => row.data.count)).to.deep.equal([1]);
  });
});
