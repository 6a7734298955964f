// POST /moderation/content/{kind}/{id} (DECISIONS: Staff and moderation; People's own content, Shared
// rules): moderators remove and restore people's content, a removed thing is gone for everyone but its
// author, its feed items hide and come back, and every action is recorded. A report resolved
// `content_removed` removes its target the same way.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import {
  catalogGame,
  comment,
  journey,
  list,
  namedPerson,
  playSession,
  review,
  screenshot,
} from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

const MISSING_ID = '6a1f3c2e-9b8d-4e7f-a0c1-2d3e4f5a6b7c';

describe('moderation: removing and restoring content', () => {
  useCleanDatabase();
  const app = useTestApp();

  let moderator: Awaited<ReturnType<typeof staffMember>>;
  let author: Awaited<ReturnType<typeof namedPerson>>;

  before(async () => {
    moderator = await staffMember(app.client, 'content_mod');
    author = await namedPerson(app.client, 'content_author');
  });

  const moderate = (kind: string, id: string, body: Record<string, unknown>) =>
    moderator.site.post(`/api/v1/moderation/content/${kind}/${id}`, body);
  const removedAt = async (table: string, column: string, id: string) =>
    (await db()(table).where(column, id).first('removed_at')).removed_at as Date | null;
  const actionsAbout = (subject: string) =>
    db()('moderator_actions').where({ subject_kind: 'content', subject_id: subject }).orderBy('created_at');

  describe('each kind', () => {
    const kinds: Array<[string, string, 'id' | 'public_id', () => Promise<Record<string, unknown>>]> = [
      ['review', 'reviews', 'id', () => review(author.account.id)],
      ['list', 'lists', 'public_id', () => list(author.account.id)],
      ['screenshot', 'screenshots', 'public_id', () => screenshot(author.account.id)],
      ['session', 'play_sessions', 'id', () => playSession(author.account.id)],
      ['journey', 'journeys', 'id', () => journey(author.account.id, { title: 'A run', started_at: new Date() })],
      ['comment', 'comments', 'id', () => comment(author.account.id, moderator.account.id)],
    ];

    for (const [kind, table, column, create] of kinds) {
      it(`removes and restores a ${kind} by its ${column === 'id' ? 'id' : 'public id'}, recording both`, async () => {
        const row = await create();
        const id = row[column] as string;

        const removed = await moderate(kind, id, { action: 'remove', note: 'Breaks the rules.' });
        expect(removed.status, removed.text).to.equal(200);
        expect(removed.body.data).to.include({ kind, id, removed: true });
        const stored = await removedAt(table, column, id);
        expect(stored).to.be.an.instanceOf(Date);
        expect(removed.body.data.removed_at).to.equal(stored!.toISOString());

        // Removing again answers the same, keeping the first time.
        const again = await moderate(kind, id, { action: 'remove' });
        expect(again.status).to.equal(200);
        expect(again.body).to.deep.equal(removed.body);

        const restored = await moderate(kind, id, { action: 'restore' });
        expect(restored.status).to.equal(200);
        expect(restored.body.data).to.deep.equal({ kind, id, removed: false, removed_at: null });
        expect(await removedAt(table, column, id)).to.equal(null);

        const actions = await actionsAbout(`${kind}:${id}`);
        expect(actions.map((action) => action.action)).to.deep.equal([
          'remove_content',
          'remove_content',
          'restore_content',
        ]);
        expect(actions[0]).to.include({ moderator_id: moderator.account.id });
        expect(actions[0].details).to.deep.equal({ note: 'Breaks the rules.' });
        expect(actions[2].details).to.deep.equal({ note: null });
      });
    }
  });

  describe('what readers see', () => {
    it('leaves a removed review to its author (removed: true, no changes) and 404 to anyone else', async () => {
      const written = await review(author.account.id, { body: 'Spoilers everywhere.' });
      const path = `/api/v1/reviews/${written.id}`;
      expect((await moderate('review', written.id as string, { action: 'remove' })).status).to.equal(200);

      const own = await author.site.get(path);
      expect(own.status).to.equal(200);
      expect(own.body.data).to.include({ id: written.id, removed: true });
      const stranger = await namedPerson(app.client, 'content_stranger');
      expect((await stranger.site.get(path)).status).to.equal(404);
      expect((await app.client.get(path)).status).to.equal(404);

      const patched = await author.site.patch(path, { body: 'Edited to pass.' });
      expect(patched.status).to.equal(403);
      expect(patched.body.error).to.include({ code: 'forbidden', reason: 'removed' });

      await moderate('review', written.id as string, { action: 'restore' });
      expect((await stranger.site.get(path)).body.data).to.include({ removed: false });
    });

    it('hides a removed review’s feed item from GET /activity and shows it again on restore', async () => {
      const writer = await namedPerson(app.client, 'content_feed_author');
      const game = await catalogGame();
      const created = await writer.site.post('/api/v1/reviews', { game_id: game.id, body: 'Worth it.' });
      expect(created.status, created.text).to.equal(201);
      const id = created.body.data.id as string;
      const feed = async () =>
        (await app.client.get('/api/v1/activity?profile=content_feed_author&kinds=review')).body.data.map(
          (item: { review_id?: string }) => item.review_id,
        );
      expect(await feed()).to.deep.equal([id]);

      await moderate('review', id, { action: 'remove' });
      expect(await feed()).to.deep.equal([]);

      await moderate('review', id, { action: 'restore' });
      expect(await feed()).to.deep.equal([id]);
    });
  });

  describe('refusals', () => {
    it('is 403 for a member and for a key, even a moderator’s, and 401 without a caller', async () => {
      const written = await review(author.account.id);
      const path = `/api/v1/moderation/content/review/${written.id}`;
      expect((await app.client.post(path, { action: 'remove' })).status).to.equal(401);

      const member = await namedPerson(app.client, 'content_member');
      const asMember = await member.site.post(path, { action: 'remove' });
      expect(asMember.status).to.equal(403);
      expect(asMember.body.error.code).to.equal('forbidden');

      const { token } = await appWithKey(moderator.account.id, ['reviews.write']);
      const byKey = await app.client.post(
        path,
        { action: 'remove' },
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(byKey.status).to.equal(403);
      expect(byKey.body.error.code).to.equal('forbidden');

      const pending = await staffMember(app.client, 'content_mod_no_2fa', { passTwoFactor: false });
      const owing = await pending.site.post(path, { action: 'remove' });
      expect(owing.body.error).to.include({ code: 'forbidden', reason: 'mfa_required' });

      expect(await removedAt('reviews', 'id', written.id as string)).to.equal(null);
      expect(await actionsAbout(`review:${written.id}`)).to.have.length(0);
    });

    it('is 404 content_not_found for a kind or id that names no content', async () => {
      const written = await review(author.account.id);
      const shot = await screenshot(author.account.id);
      const paths: Array<[string, string]> = [
        ['profile', written.id as string],
        ['reviews', written.id as string],
        ['REVIEW', written.id as string],
        ['review', MISSING_ID],
        ['review', '42'],
        ['list', 'abcdef123456'],
        // A screenshot is named by its public id, not its row id.
        ['screenshot', shot.id as string],
        ['session', written.id as string],
      ];
      for (const [kind, id] of paths) {
        const res = await moderate(kind, id, { action: 'remove' });
        expect(res.status, `${kind}/${id}`).to.equal(404);
        expect(res.body.error, `${kind}/${id}`).to.include({ code: 'not_found', reason: 'content_not_found' });
      }
      expect(await removedAt('reviews', 'id', written.id as string)).to.equal(null);
    });

    it('is 400 for a missing or unknown action, a long note or a control character in it', async () => {
      const written = await review(author.account.id);
      const refusals: Array<[Record<string, unknown>, string, string]> = [
        [{}, 'action', 'missing'],
        [{ action: 'delete' }, 'action', 'not_allowed'],
        [{ action: 'remove', note: 'n'.repeat(1001) }, 'note', 'too_long'],
        [{ action: 'remove', note: 'bell\u0007' }, 'note', 'bad_format'],
        [{ action: 'remove', extra: 1 }, 'extra', 'unknown_field'],
      ];
      for (const [body, field, reason] of refusals) {
        const res = await moderate('review', written.id as string, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error, JSON.stringify(body)).to.include({ code: 'invalid_request', field, reason });
      }
      const kept = await moderate('review', written.id as string, { action: 'remove', note: 'ok\tand\nmore' });
      expect(kept.status).to.equal(200);
    });
  });

  describe('resolving a report with content_removed', () => {
    const fileAndResolve = async (
      reporter: Awaited<ReturnType<typeof namedPerson>>,
      report: Record<string, unknown>,
      outcome = 'content_removed',
    ) => {
      const filed = await reporter.site.post('/api/v1/reports', { username: 'content_author', ...report });
      expect(filed.status, filed.text).to.equal(201);
      const row = await db()('reports')
        .where({ reporter_id: reporter.account.id })
        .orderBy('created_at', 'desc')
        .first();
      const resolved = await moderator.site.post(`/api/v1/moderation/reports/${row.id}/resolve`, {
        outcome,
        note: 'Reported and removed.',
      });
      expect(resolved.status, resolved.text).to.equal(200);
      return row as { id: string; target_id: string };
    };

    it('removes the reported review and records the removal beside the resolution', async () => {
      const reporter = await namedPerson(app.client, 'content_reporter');
      const written = await review(author.account.id, { body: 'Rude words.' });
      const report = await fileAndResolve(reporter, { on: 'REVIEW', id: written.id, reason: 'HARASSMENT' });
      expect(await removedAt('reviews', 'id', written.id as string)).to.be.an.instanceOf(Date);
      expect((await reporter.site.get(`/api/v1/reviews/${written.id}`)).status).to.equal(404);
      const [action] = await actionsAbout(`review:${written.id}`);
      expect(action).to.include({ action: 'remove_content', moderator_id: moderator.account.id });
      expect(action.details).to.deep.equal({ note: 'Reported and removed.', report_id: report.id });
    });

    it('removes lists and screenshots by their public id, and a diary report’s journey', async () => {
      const reporter = await namedPerson(app.client, 'content_reporter_two');
      const owned = await list(author.account.id);
      await fileAndResolve(reporter, { on: 'LIST', id: owned.public_id, reason: 'SPAM' });
      expect(await removedAt('lists', 'id', owned.id as string)).to.be.an.instanceOf(Date);

      const shot = await screenshot(author.account.id);
      await fileAndResolve(reporter, { on: 'SCREENSHOT', id: shot.public_id, reason: 'SPAM' });
      expect(await removedAt('screenshots', 'id', shot.id as string)).to.be.an.instanceOf(Date);

      const run = await journey(author.account.id, { title: 'A run', started_at: new Date() });
      await fileAndResolve(reporter, { on: 'DIARY', id: run.id, reason: 'SPAM' });
      expect(await removedAt('journeys', 'id', run.id as string)).to.be.an.instanceOf(Date);
    });

    it('leaves the target alone for another outcome, and resolves even when the target is gone', async () => {
      const reporter = await namedPerson(app.client, 'content_reporter_three');
      const kept = await review(author.account.id, { body: 'Borderline.' });
      await fileAndResolve(reporter, { on: 'REVIEW', id: kept.id, reason: 'SPAM' }, 'no_action');
      expect(await removedAt('reviews', 'id', kept.id as string)).to.equal(null);

      const gone = await review(author.account.id, { body: 'Deleted later.' });
      const filed = await reporter.site.post('/api/v1/reports', {
        on: 'REVIEW',
        username: 'content_author',
        id: gone.id,
        reason: 'SPAM',
      });
      expect(filed.status).to.equal(201);
      await db()('reviews').where({ id: gone.id }).delete();
      const row = await db()('reports').where({ target_id: gone.id }).first();
      const resolved = await moderator.site.post(`/api/v1/moderation/reports/${row.id}/resolve`, {
        outcome: 'content_removed',
      });
      expect(resolved.status).to.equal(200);
      expect(await actionsAbout(`review:${gone.id}`)).to.have.length(0);

      // A profile is not content: its report resolves and nothing is removed.
      await reporter.site.post('/api/v1/reports', { on: 'PROFILE', username: 'content_author', reason: 'SPAM' });
      const profileReport = await db()('reports')
        .where({ target_kind: 'PROFILE', target_id: author.account.id })
        .first();
      const done = await moderator.site.post(`/api/v1/moderation/reports/${profileReport.id}/resolve`, {
        outcome: 'content_removed',
      });
      expect(done.status).to.equal(200);
    });
  });

  it('lists the actions in GET /moderation/actions about content', async () => {
    const written = await review(author.account.id);
    await moderate('review', written.id as string, { action: 'remove', note: 'Listed.' });
    const res = await moderator.site.get('/api/v1/moderation/actions');
    expect(res.body.data[0]).to.deep.include({
      action: 'remove_content',
      subject: { kind: 'content', id: `review:${written.id}` },
      details: { note: 'Listed.' },
    });
  });
});
