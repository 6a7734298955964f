// Moderation of Arcade: the queue, release and store-page decisions with their effect on what the
// developer and players see, actions on games with their notices, and members kept out.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseColumns } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

describe('Arcade: moderation', () => {
  useCleanDatabase();
  const app = useTestApp();

  async function submittedGame(slug: string) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    const [check] = await db()('arcade_checks')
      .insert({
        app_id: dev.app.id,
        release_id: (
          await db()('arcade_releases')
            .insert({
              app_id: dev.app.id,
              number: 1,
              status: 'submitted',
              submitted_at: new Date(),
              ...releaseColumns(),
            })
            .returning('id')
        )[0].id,
        cause: 'submit',
        passed: true,
        result: JSON.stringify({ passed: true, entry_sha256: 'abc', provider: 'unknown' }),
      })
      .returning(['id', 'release_id']);
    await db()('arcade_releases').where({ id: check.release_id }).update({ last_check_id: check.id });
    const [listing] = await db()('arcade_listings')
      .insert({
        app_id: dev.app.id,
        number: 1,
        status: 'submitted',
        submitted_at: new Date(),
        fields: JSON.stringify(listingBody({ name: 'Moderated Game' })),
      })
      .returning('id');
    return { dev, releaseId: check.release_id as string, listingId: listing.id as string };
  }

  it('keeps members and keys out, and staff who did not pass two-factor', async () => {
    const member = await arcadeDeveloper(app.client);
    expect((await member.site.get('/api/v1/moderation/arcade/queue')).status).to.equal(403);
    const unverified = await staffMember(app.client, 'mod_no_tfa', { passTwoFactor: false });
    const res = await unverified.site.get('/api/v1/moderation/arcade/queue');
    expect([res.status, res.body.error.reason]).to.deep.equal([403, 'mfa_required']);
  });

  it('shows the queue, approves a release with its check and a store page, which lists the game', async () => {
    const moderator = await staffMember(app.client, 'mod_arcade');
    const { dev, releaseId, listingId } = await submittedGame('judged-game');
    const queue = (await moderator.site.get('/api/v1/moderation/arcade/queue')).body.data;
    expect(queue.releases.map((r: { id: string }) => r.id)).to.deep.equal([releaseId]);
    expect(queue.listings.map((l: { id: string }) => l.id)).to.deep.equal([listingId]);
    expect(queue.releases[0].last_check).to.deep.include({ passed: true });

    const reviewing = await moderator.site.post(`/api/v1/moderation/arcade/releases/${releaseId}`, {
      decision: 'in_review',
    });
    expect(reviewing.body.data.status).to.equal('in_review');
    const approved = await moderator.site.post(`/api/v1/moderation/arcade/releases/${releaseId}`, {
      decision: 'approve',
      reasons: [],
      note: 'Looks fine.',
    });
    expect(approved.body.data).to.deep.include({ status: 'approved' });
    const row = await db()('arcade_releases').where({ id: releaseId }).first();
    expect([row.approval_sha256, row.approval_provider, row.reviewer_id]).to.deep.equal([
      'abc',
      'unknown',
      moderator.account.id,
    ]);
    const again = await moderator.site.post(`/api/v1/moderation/arcade/releases/${releaseId}`, { decision: 'approve' });
    expect([again.status, again.body.error.reason]).to.deep.equal([409, 'invalid_transition']);

    await moderator.site.post(`/api/v1/moderation/arcade/listings/${listingId}`, { decision: 'approve' });
    const record = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data.app;
    expect(record.status).to.equal('listed');
    expect(record.listing.approved).to.deep.include({ name: 'Moderated Game', status: 'approved' });
    expect(record.releases[0]).to.deep.include({ status: 'approved', can_make_live: true, live: false });
    expect(record.releases[0].review).to.deep.equal({ decision: 'approve', reasons: [], note: 'Looks fine.' });
    // The developer never learns who decided.
    expect(JSON.stringify(record)).to.not.include(moderator.account.id);
    expect(JSON.stringify(record)).to.not.include('mod_arcade');
    const mails = await db()('email_outbox').where({ to_address: dev.email, kind: 'arcade.notice' });
    expect(mails).to.have.length(2);
    const actions = await db()('moderator_actions').where({ moderator_id: moderator.account.id }).orderBy('created_at');
    expect(actions.map((a) => a.action)).to.deep.equal(['review_release', 'review_release', 'review_listing']);
  });

  it('rejects a store page with reasons the developer sees, and acts on games with notices', async () => {
    const moderator = await staffMember(app.client, 'mod_acts');
    const { dev, listingId } = await submittedGame('acted-game');
    await moderator.site.post(`/api/v1/moderation/arcade/listings/${listingId}`, {
      decision: 'reject',
      reasons: ['misleading_name'],
      note: 'Pick a name that is yours.',
    });
    const rejected = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data.app.listing.rejected;
    expect(rejected.review).to.deep.equal({
      decision: 'reject',
      reasons: ['misleading_name'],
      note: 'Pick a name that is yours.',
    });

    const act = (body: Record<string, unknown>) =>
      moderator.site.post(`/api/v1/moderation/arcade/apps/${dev.app.id}`, body);
    const flagged = await act({ action: 'flag', reason: 'Checking a complaint.' });
    expect(flagged.body.data.notice).to.deep.include({ kind: 'flagged', reason: 'Checking a complaint.' });
    const badHide = await act({ action: 'hide', reason: 'because' });
    expect([badHide.status, badHide.body.error.field]).to.deep.equal([400, 'reason']);
    expect((await act({ action: 'hide', reason: 'reports' })).body.data).to.deep.include({ status: 'hidden' });
    const summary = (await dev.site.get('/api/v1/account/apps')).body.data[0].arcade;
    expect(summary).to.deep.include({ status: 'hidden', hidden_reason: 'reports' });
    expect((await act({ action: 'suspend', reason: 'Broke the terms.' })).body.data.status).to.equal('suspended');
    const restored = await act({ action: 'restore' });
    expect(restored.body.data).to.deep.include({ status: 'draft', notice: null });
    const events = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data.app.events;
    expect(events.map((e: { kind: string }) => e.kind).slice(0, 5)).to.deep.equal([
      'restored',
      'suspended',
      'hidden',
      'flagged',
      'listing_rejected',
    ]);
    const unknown = await moderator.site.post('/api/v1/moderation/arcade/apps/00000000-0000-4000-8000-000000000000', {
      action: 'flag',
    });
    expect([unknown.status, unknown.body.error.reason]).to.deep.equal([404, 'app_not_found']);
  });
});
