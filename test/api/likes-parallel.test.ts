// Likes under concurrency (DECISIONS: Likes and comments): the thing's count follows the like rows exactly,
// because the database moves it only for a row really inserted or deleted. 50 accounts liking one list at
// once count 50; one account sending the same like 20 times at once counts 1; and the count follows rows
// taken away by an account's deletion, or by DELETE /account/data, as well as by the routes.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount, PASSWORD, signedInClient } from '../helpers/factories.js';
import { namedPerson } from '../helpers/people.js';
import { keyed, likesOf, thing } from '../helpers/social-things.js';
import { useTestApp } from '../helpers/test-app.js';

describe('likes: counts under concurrency', () => {
  useCleanDatabase();
  const app = useTestApp();

  const likeRows = (subjectId: string) =>
    db()('likes')
      .where({ subject_id: subjectId })
      .count({ n: '*' })
      .then(([row]) => Number(row.n));

  it('counts 50 when 50 accounts like one list at once, and 0 when they all take it back at once', async function () {
    this.timeout(60_000);
    const owner = await namedPerson(app.client, 'lp_owner');
    const list = await thing(owner.account.id, 'list');
    const fans = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const { account } = await buildAccount({ password: null });
        return keyed(app.client, account.id, ['social.write']);
      }),
    );
    const path = `/api/v1/likes/list/${list.id}`;
    const liked = await Promise.all(fans.map((fan) => fan.put(path)));
    expect(liked.map((res) => res.status)).to.deep.equal(fans.map(() => 200));
    // Each answer's count is what that like saw: every one from 1 to 50 exactly once.
    expect(liked.map((res) => res.body.data.likes).sort((a, b) => a - b)).to.deep.equal(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(await likesOf(list)).to.equal(50);
    expect(await likeRows(list.rowId)).to.equal(50);
    const shown = await owner.site.get('/api/v1/profiles/lp_owner/lists');
    expect(shown.body.data[0].likes).to.equal(50);

    const unliked = await Promise.all(fans.map((fan) => fan.delete(path)));
    expect(unliked.every((res) => res.status === 200 && res.body.data.liked === false)).to.equal(true);
    expect(await likesOf(list)).to.equal(0);
    expect(await likeRows(list.rowId)).to.equal(0);
  });

  it('counts one account once however many of its likes and unlikes arrive at once', async function () {
    this.timeout(30_000);
    const owner = await namedPerson(app.client, 'lp_one_owner');
    const fan = await namedPerson(app.client, 'lp_one_fan');
    const review = await thing(owner.account.id, 'review');
    const path = `/api/v1/likes/review/${review.id}`;
    const repeats = await Promise.all(Array.from({ length: 20 }, () => fan.site.put(path)));
    expect(repeats.every((res) => res.status === 200)).to.equal(true);
    expect(repeats.every((res) => res.body.data.likes === 1)).to.equal(true);
    expect(await likesOf(review)).to.equal(1);
    expect(await likeRows(review.rowId)).to.equal(1);

    // Likes and unlikes mixed: whatever order they land in, the count is the rows.
    const mixed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? fan.site.put(path) : fan.site.delete(path))),
    );
    expect(mixed.every((res) => res.status === 200)).to.equal(true);
    expect(await likesOf(review)).to.equal(await likeRows(review.rowId));
    expect(await likesOf(review)).to.be.oneOf([0, 1]);
  });

  it('takes a deleted account’s likes off every count', async () => {
    const owner = await namedPerson(app.client, 'lp_acct_owner');
    const targets = await Promise.all(
      (['review', 'list', 'screenshot', 'journey'] as const).map((kind) => thing(owner.account.id, kind)),
    );
    const leaving = await namedPerson(app.client, 'lp_acct_leaving');
    const staying = await namedPerson(app.client, 'lp_acct_staying');
    for (const target of targets) {
      for (const fan of [leaving, staying]) await fan.site.put(`/api/v1/likes/${target.kind}/${target.id}`);
    }
    await db()('accounts').where({ id: leaving.account.id }).delete();
    for (const target of targets) expect(await likesOf(target), target.kind).to.equal(1);
    expect(await db()('likes').where({ account_id: leaving.account.id })).to.have.length(0);
  });

  it('takes likes off their counts when DELETE /account/data removes everything, and keeps them otherwise', async () => {
    const owner = await namedPerson(app.client, 'lp_data_owner');
    const review = await thing(owner.account.id, 'review');
    const { site } = await signedInClient(app.client);
    await site.put(`/api/v1/likes/review/${review.id}`);
    const comments = await site.delete('/api/v1/account/data?category=comments', { body: { password: PASSWORD } });
    expect(comments.status, comments.text).to.equal(200);
    expect(comments.body.data.removed).to.deep.equal({ comments: 0 });
    expect(await likesOf(review)).to.equal(1);

    const everything = await site.delete('/api/v1/account/data?category=everything', {
      body: { password: PASSWORD },
    });
    expect(everything.status, everything.text).to.equal(200);
    expect(everything.body.data.removed).to.deep.include({ likes: 1 });
    expect(await likesOf(review)).to.equal(0);
  });
});
