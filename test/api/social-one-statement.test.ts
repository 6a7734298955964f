// Likes and comments are one statement each (shared/social/like-statements.ts,
// shared/comments/comment-statements.ts): what one statement must still hold. The count each like and
// unlike answers is the thing's counter after it, whatever runs beside it; a thing deleted while a like or
// comment waits for it takes nothing with it and leaves nothing behind; and a comment's place is judged
// before the cap, so a refused place answers its own refusal and uses nothing, and a full window writes
// nothing.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { namedPerson } from '../helpers/people.js';
import { rollingUsesOf, seedRollingUses } from '../helpers/rolling-uses.js';
import { keyed, likesOf, refused, thing } from '../helpers/social-things.js';
import { useTestApp } from '../helpers/test-app.js';

/**
 * Resolves once a statement starting with `opening` waits for a lock (pg_stat_activity keeps only the
 * start of a long statement), or `request` has answered (then the test's expectations tell what happened
 * without the wait).
 */
async function waitingOnLock(opening: string, request: Promise<TestResponse>): Promise<void> {
  let answered = false;
  void request.then(
    () => (answered = true),
    () => (answered = true),
  );
  for (let tries = 0; tries < 1000 && !answered; tries++) {
    const { rows } = await db().raw<{ rows: Array<{ n: number }> }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND position(? in query) > 0`,
      [opening],
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('likes and comments in one statement', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('answers 40 likes at once 1 to 40 and 40 unlikes at once 39 to 0, each count once', async function () {
    this.timeout(60_000);
    const owner = await namedPerson(app.client, 'os_count_owner');
    const journey = await thing(owner.account.id, 'journey');
    const fans = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const { account } = await buildAccount({ password: null });
        return keyed(app.client, account.id, ['social.write']);
      }),
    );
    const path = `/api/v1/likes/journey/${journey.id}`;
    const counts = (answers: TestResponse[]) => {
      expect(answers.map((res) => res.status)).to.deep.equal(fans.map(() => 200));
      return answers.map((res) => res.body.data.likes as number).sort((a, b) => a - b);
    };
    expect(counts(await Promise.all(fans.map((fan) => fan.put(path))))).to.deep.equal(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(counts(await Promise.all(fans.map((fan) => fan.delete(path))))).to.deep.equal(
      Array.from({ length: 40 }, (_, i) => i),
    );
    expect(await likesOf(journey)).to.equal(0);
  });

  it('likes nothing that is deleted while the like waits for it, and leaves no like behind', async () => {
    const owner = await namedPerson(app.client, 'os_like_gone_owner');
    const fan = await namedPerson(app.client, 'os_like_gone_fan');
    const review = await thing(owner.account.id, 'review');
    const deletion = await db().transaction();
    try {
      await deletion('reviews').where({ id: review.rowId }).delete();
      const like = fan.site.put(`/api/v1/likes/review/${review.id}`);
      await waitingOnLock('WITH thing AS', like);
      await deletion.commit();
      refused(await like, 404, { code: 'not_found', reason: 'review_not_found' });
    } finally {
      if (!deletion.isCompleted()) await deletion.rollback();
    }
    expect(await db()('likes').where({ subject_id: review.rowId })).to.have.length(0);
  });

  it('comments on nothing that is deleted while the comment waits for it, using none of the cap', async () => {
    const owner = await namedPerson(app.client, 'os_comment_gone_owner');
    const author = await namedPerson(app.client, 'os_comment_gone_author');
    const list = await thing(owner.account.id, 'list');
    const deletion = await db().transaction();
    try {
      await deletion('lists').where({ id: list.rowId }).delete();
      const comment = author.site.post('/api/v1/comments', { on: 'LIST', id: list.id, body: 'Too late?' });
      await waitingOnLock('WITH place AS', comment);
      await deletion.commit();
      refused(await comment, 404, { code: 'not_found', reason: 'list_not_found' });
    } finally {
      if (!deletion.isCompleted()) await deletion.rollback();
    }
    expect(await db()('comments').where({ target_id: list.rowId })).to.have.length(0);
    expect(await rollingUsesOf(`comments:${author.account.id}`)).to.equal(0);
  });

  it('judges the place before the cap: a full window still answers 404 and 403 as such, and writes nothing', async () => {
    await namedPerson(app.client, 'os_cap_closed', 'FOLLOWERS');
    const open = await namedPerson(app.client, 'os_cap_open');
    const author = await namedPerson(app.client, 'os_cap_author');
    const hidden = await thing(open.account.id, 'review', { visibility: 'PRIVATE' });
    const key = `comments:${author.account.id}`;
    const post = (on: string, id: string) => author.site.post('/api/v1/comments', { on, id, body: 'Hello.' });

    // With room left, the refusals take none of it.
    refused(await post('PROFILE', 'os_cap_closed'), 403, { code: 'forbidden', reason: 'followers_only' });
    refused(await post('REVIEW', hidden.id), 404, { reason: 'review_not_found' });
    expect(await rollingUsesOf(key)).to.equal(0);

    await seedRollingUses(key, 30, 60);
    refused(await post('PROFILE', 'os_cap_closed'), 403, { reason: 'followers_only' });
    refused(await post('REVIEW', hidden.id), 404, { reason: 'review_not_found' });
    refused(await post('PROFILE', 'nobody_at_all'), 404, { code: 'not_found' });
    const full = await post('PROFILE', 'os_cap_open');
    refused(full, 429, { code: 'rate_limited' });
    expect(full.body.error.retry_after).to.be.within(3530, 3540);
    expect(await rollingUsesOf(key)).to.equal(30);
    expect(await db()('comments').where({ account_id: author.account.id })).to.have.length(0);
  });
});
