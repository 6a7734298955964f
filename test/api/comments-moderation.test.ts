// Comments written through POST /comments meet the rest of the service (DECISIONS: Likes and comments; Staff
// and moderation): reports PROFILE_COMMENT and CONTENT_COMMENT find them, resolving a report
// `content_removed` or POST /moderation/content/comment/{id} hides them everywhere (GET /comments, the
// profile conversation, the counts the things show) until restored, a deleted thing takes its comments,
// and the account's data holds them: the export lists comments and likes, DELETE /account/data removes them.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { PASSWORD } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import { catalogGame, namedPerson } from '../helpers/people.js';
import { thing } from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('comments: reports, moderation and the account’s data', () => {
  useCleanDatabase();
  const app = useTestApp();

  let moderator: Awaited<ReturnType<typeof staffMember>>;
  let host: Awaited<ReturnType<typeof namedPerson>>;
  let author: Awaited<ReturnType<typeof namedPerson>>;
  let reporter: Awaited<ReturnType<typeof namedPerson>>;
  before(async () => {
    moderator = await staffMember(app.client, 'cmod_staff');
    host = await namedPerson(app.client, 'cmod_host');
    author = await namedPerson(app.client, 'cmod_author');
    reporter = await namedPerson(app.client, 'cmod_reporter');
  });

  const write = async (on: string, id: string, body: string) => {
    const res = await author.site.post('/api/v1/comments', { on, id, body });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };
  const conversationOf = async (site: SiteClient, on: string, id: string) =>
    ((await site.get(`/api/v1/comments?on=${on}&id=${id}`)).body.data as Array<{ id: string }>).map((c) => c.id);
  const profileTalk = async (site: SiteClient) =>
    (await site.get('/api/v1/profiles/cmod_host/social')).body.data.conversation as {
      total: number;
      comments: Array<{ id: string }>;
    };

  /** Files a report on `id` and resolves it with `outcome`; answers the report row. */
  const fileAndResolve = async (on: string, id: string, outcome = 'content_removed') => {
    const filed = await reporter.site.post('/api/v1/reports', {
      on,
      username: 'cmod_author',
      id,
      reason: 'HARASSMENT',
    });
    expect(filed.status, filed.text).to.equal(201);
    const row = await db()('reports').where({ reporter_id: reporter.account.id, target_id: id }).first();
    expect(row).to.include({ target_kind: on, target_account_id: author.account.id });
    const resolved = await moderator.site.post(`/api/v1/moderation/reports/${row.id}/resolve`, { outcome });
    expect(resolved.status, resolved.text).to.equal(200);
    return row as { id: string; snapshot: Record<string, unknown> };
  };

  it('finds a profile comment by PROFILE_COMMENT and hides it everywhere once resolved content_removed', async () => {
    const kept = await write('PROFILE', 'cmod_host', 'Nice shelf.');
    const rude = await write('PROFILE', 'cmod_host', 'You are awful.');
    const anyone = new SiteClient(app.client);
    expect(await conversationOf(anyone, 'PROFILE', 'cmod_host')).to.deep.equal([rude, kept]);
    expect((await profileTalk(anyone)).total).to.equal(2);

    // A profile comment is not content on a thing.
    const wrongKind = await reporter.site.post('/api/v1/reports', {
      on: 'CONTENT_COMMENT',
      username: 'cmod_author',
      id: rude,
      reason: 'SPAM',
    });
    expect(wrongKind.status).to.equal(404);
    const report = await fileAndResolve('PROFILE_COMMENT', rude);
    expect(report.snapshot).to.deep.include({ id: rude, body: 'You are awful.' });
    expect(await db()('comments').where({ id: rude }).first('removed_at'))
      .to.have.property('removed_at')
      .that.is.a('date');

    for (const site of [anyone, host.site, author.site, moderator.site]) {
      expect(await conversationOf(site, 'PROFILE', 'cmod_host')).to.deep.equal([kept]);
      const talk = await profileTalk(site);
      expect(talk.comments.map((c) => c.id)).to.deep.equal([kept]);
      expect(talk.total).to.equal(1);
    }
    // Its author can still delete it.
    expect((await author.site.delete(`/api/v1/comments/${rude}`)).status).to.equal(200);
  });

  it('finds a comment on a thing by CONTENT_COMMENT, and its removal takes it off the thing’s counts', async () => {
    const game = await catalogGame();
    const review = await host.site.post('/api/v1/reviews', { game_id: game.id, body: 'Worth it.' });
    const reviewId = review.body.data.id as string;
    const journey = await thing(host.account.id, 'journey');
    const onReview = await write('REVIEW', reviewId, 'Spoiler: everyone dies.');
    const onJourney = await write('JOURNEY', journey.id, 'Bad run.');
    const anyone = new SiteClient(app.client);
    expect((await anyone.get(`/api/v1/reviews/${reviewId}`)).body.data.comments).to.equal(1);
    const feedCount = async () =>
      ((await anyone.get('/api/v1/profiles/cmod_host/reviews')).body.data as Array<Record<string, unknown>>).find(
        (item) => item.review_id === reviewId,
      )!.comments;
    expect(await feedCount()).to.equal(1);

    const report = await fileAndResolve('CONTENT_COMMENT', onReview);
    expect(report.snapshot.on).to.include({ kind: 'REVIEW', id: reviewId, username: 'cmod_host' });
    expect(await conversationOf(anyone, 'REVIEW', reviewId)).to.deep.equal([]);
    expect(await conversationOf(host.site, 'REVIEW', reviewId)).to.deep.equal([]);
    expect((await anyone.get(`/api/v1/reviews/${reviewId}`)).body.data.comments).to.equal(0);
    expect(await feedCount()).to.equal(0);
    // Another outcome leaves the comment alone.
    await fileAndResolve('CONTENT_COMMENT', onJourney, 'no_action');
    expect(await conversationOf(anyone, 'JOURNEY', journey.id)).to.deep.equal([onJourney]);
    const journeys = (await anyone.get('/api/v1/profiles/cmod_host/journeys')).body.data;
    expect(journeys.find((each: { id: string }) => each.id === journey.id).comments).to.equal(1);
  });

  it('hides and restores a comment through POST /moderation/content/comment/{id}', async () => {
    const list = await thing(host.account.id, 'list');
    const said = await write('LIST', list.id, 'Where is Hollow Knight?');
    const anyone = new SiteClient(app.client);
    const removed = await moderator.site.post(`/api/v1/moderation/content/comment/${said}`, { action: 'remove' });
    expect(removed.status, removed.text).to.equal(200);
    expect(removed.body.data).to.include({ kind: 'comment', id: said, removed: true });
    expect(await conversationOf(anyone, 'LIST', list.id)).to.deep.equal([]);
    expect(await conversationOf(author.site, 'LIST', list.id)).to.deep.equal([]);

    const restored = await moderator.site.post(`/api/v1/moderation/content/comment/${said}`, { action: 'restore' });
    expect(restored.status).to.equal(200);
    expect(await conversationOf(anyone, 'LIST', list.id)).to.deep.equal([said]);
  });

  it('takes a thing’s comments with it when the thing is deleted', async () => {
    const game = await catalogGame();
    const review = await host.site.post('/api/v1/reviews', { game_id: game.id, body: 'Soon gone.' });
    const said = await write('REVIEW', review.body.data.id, 'First!');
    expect((await host.site.delete(`/api/v1/reviews/${review.body.data.id}`)).status).to.equal(200);
    expect(await db()('comments').where({ id: said })).to.have.length(0);
    const session = await thing(host.account.id, 'session');
    const onSession = await write('DIARY', session.id, 'Long night.');
    await db()('play_sessions').where({ id: session.rowId }).delete();
    expect(await db()('comments').where({ id: onSession })).to.have.length(0);
  });

  it('exports the comments and likes an account gave, and deletes its comments by their category', async () => {
    const fan = await namedPerson(app.client, 'cmod_exporter');
    const review = await thing(host.account.id, 'review');
    const screenshot = await thing(host.account.id, 'screenshot');
    const said = await fan.site.post('/api/v1/comments', { on: 'REVIEW', id: review.id, body: 'Exported.' });
    await fan.site.put(`/api/v1/likes/review/${review.id}`);
    await fan.site.put(`/api/v1/likes/screenshot/${screenshot.id}`);

    const exported = JSON.parse((await fan.site.get('/api/v1/account/export')).text).data;
    expect(exported.comments).to.have.length(1);
    expect(exported.comments[0]).to.include({
      id: said.body.data.id,
      target_kind: 'REVIEW',
      target_id: review.rowId,
      body: 'Exported.',
    });
    expect(exported.likes.map((like: { subject_kind: string; subject_id: string }) => like.subject_id)).to.deep.equal([
      review.rowId,
      screenshot.rowId,
    ]);
    expect(exported.likes[0]).to.have.keys(['subject_kind', 'subject_id', 'created_at']);

    const deleted = await fan.site.delete('/api/v1/account/data?category=comments', { body: { password: PASSWORD } });
    expect(deleted.status, deleted.text).to.equal(200);
    expect(deleted.body.data.removed).to.deep.equal({ comments: 1 });
    expect((await fan.site.get(`/api/v1/reviews/${review.id}`)).body.data).to.include({ comments: 0, likes: 1 });
    // The comments category leaves likes: they are no comment.
    expect(await db()('likes').where({ account_id: fan.account.id })).to.have.length(2);
  });
});
