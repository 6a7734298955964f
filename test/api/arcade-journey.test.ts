// The whole developer journey against a local https "developer host" reached through the outbound guard's
// test door, with the real url.check and image jobs: enable, store page and icon, release, check, submit,
// moderator approval, live, a new release live, rollback, rollback too far, remove.
import { expect } from 'chai';
import sharp from 'sharp';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, GAME_PAGE, listingBody, releaseBody, serveGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

describe('Arcade: the developer journey', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['url.check', 'email.send']);
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);
  let host: FakeHost;

  before(async () => {
    host = await startFakeHost();
  });
  after(() => host.close());

  it('goes from enabling to live, rolls back one step only, and removes the game for good', async () => {
    const dev = await arcadeDeveloper(app.client);
    const moderator = await staffMember(app.client, 'mod_journey');
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    await enabledGame(dev, 'journey-rocks');
    serveGame(host, dev.app.id);

    const listing = await dev.site.put(`${base}/listing`, listingBody({ name: 'Journey Rocks' }));
    expect(listing.status, listing.text).to.equal(200);
    // The spec's listing object: the draft, and nothing approved, pending or refused yet.
    expect(listing.body.data.listing).to.deep.include({ approved: null, pending: null, rejected: null });
    expect(listing.body.data.listing.draft).to.deep.include({ name: 'Journey Rocks', status: 'draft' });
    const form = new FormData();
    form.append('kind', 'icon');
    form.append('position', '0');
    const icon = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    form.append('file', new Blob([icon], { type: 'image/png' }), 'icon.png');
    const uploaded = await dev.site.request('POST', `${base}/media`, { raw: form });
    expect(uploaded.status, uploaded.text).to.equal(201);
    const listingSubmitted = await dev.site.post(`${base}/listing/submit`);
    expect(listingSubmitted.status, listingSubmitted.text).to.equal(200);
    const submittedListing = listingSubmitted.body.data.listing;
    expect(Object.keys(submittedListing).sort()).to.deep.equal(['approved', 'draft', 'pending', 'rejected']);
    expect([submittedListing.approved, submittedListing.draft, submittedListing.rejected]).to.deep.equal([
      null,
      null,
      null,
    ]);
    expect(submittedListing.pending).to.deep.include({ name: 'Journey Rocks', status: 'submitted' });
    expect(submittedListing.pending.icon_url).to.equal(uploaded.body.data.image_url);
    // The same object the app record answers.
    expect((await dev.site.get(base)).body.data.app.listing).to.deep.equal(submittedListing);
    expect((await dev.site.put(`${base}/listing`, listingBody())).body.error.reason).to.equal('listing_locked');

    const release = async (page = GAME_PAGE) => {
      serveGame(host, dev.app.id, page);
      const created = await dev.site.post(`${base}/releases`, releaseBody(host));
      expect(created.status, created.text).to.equal(201);
      const id = created.body.data.release.id as string;
      const checked = await dev.site.post(`${base}/releases/${id}/check`);
      expect(checked.status, checked.text).to.equal(200);
      expect(checked.body.data.check).to.deep.include({ passed: true, proof_ok: true, framing_ok: true });
      const submitted = await dev.site.post(`${base}/releases/${id}/submit`);
      expect(submitted.status, submitted.text).to.equal(200);
      expect(submitted.body.data.release.status).to.equal('submitted');
      expect((await dev.site.put(`${base}/releases/${id}`, releaseBody(host))).body.error.reason).to.equal(
        'release_locked',
      );
      const approved = await moderator.site.post(`/api/v1/moderation/arcade/releases/${id}`, { decision: 'approve' });
      expect(approved.status, approved.text).to.equal(200);
      return id;
    };
    const live = async (id: string) => dev.site.post(`${base}/releases/${id}/live`);

    const first = await release();
    const [pendingListing] = await db()('arcade_listings').where({ app_id: dev.app.id, status: 'submitted' });
    await moderator.site.post(`/api/v1/moderation/arcade/listings/${pendingListing.id}`, { decision: 'approve' });
    const wentLive = await live(first);
    expect(wentLive.status, wentLive.text).to.equal(200);
    expect(wentLive.body.data.check.passed).to.equal(true);
    expect(wentLive.body.data.app).to.deep.include({ status: 'listed' });
    const shown = await app.client.get('/api/v1/arcade/apps/journey-rocks');
    expect(shown.body.data).to.deep.include({ name: 'Journey Rocks', host: host.name });
    expect(shown.body.data.icon_url).to.equal(uploaded.body.data.image_url);
    // Editing again answers what players see beside the new draft.
    const edited = (await dev.site.put(`${base}/listing`, listingBody({ name: 'Journey Rocks II' }))).body.data.listing;
    expect(edited.approved).to.deep.include({ name: 'Journey Rocks', status: 'approved' });
    expect(edited.draft).to.deep.include({ name: 'Journey Rocks II', status: 'draft' });
    expect([edited.pending, edited.rejected]).to.deep.equal([null, null]);
    expect((await app.client.get('/api/v1/arcade/apps/journey-rocks')).body.data.name).to.equal('Journey Rocks');

    const second = await release('<!doctype html><title>Rocks 2</title>');
    expect((await live(second)).status).to.equal(200);
    // Back to the one live just before, and forward again.
    expect((await live(first)).status).to.equal(200);
    expect((await live(second)).status).to.equal(200);
    const third = await release('<!doctype html><title>Rocks 3</title>');
    expect((await live(third)).status).to.equal(200);
    const tooFar = await live(first);
    expect([tooFar.status, tooFar.body.error.reason]).to.deep.equal([409, 'rollback_too_far']);
    const record = (await dev.site.get(base)).body.data.app;
    const byNumber = Object.fromEntries(record.releases.map((r: { number: number }) => [r.number, r]));
    expect([byNumber[3].live, byNumber[2].previous_live, byNumber[1].can_make_live]).to.deep.equal([true, true, false]);
    expect(await db()('arcade_claims').where({ kind: 'origin', app_id: dev.app.id }).pluck('value')).to.deep.equal([
      host.origin,
    ]);

    const removed = await dev.site.post(`${base}/remove`);
    expect(removed.status, removed.text).to.equal(200);
    expect(removed.body.data.app.status).to.equal('removed');
    expect((await app.client.get('/api/v1/arcade/apps/journey-rocks')).status).to.equal(404);
    const kinds = (await dev.site.get(base)).body.data.app.events.map((e: { kind: string }) => e.kind);
    expect(kinds[0]).to.equal('removed');
    expect(kinds).to.include.members(['release_submitted', 'release_approved', 'release_live', 'listing_submitted']);
    const mails = await db()('email_outbox').where({ to_address: dev.email }).pluck('subject');
    expect(mails.some((subject: string) => /removed/.test(subject))).to.equal(true);
  });
});
