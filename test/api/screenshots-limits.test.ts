// POST /screenshots at its limits (DECISIONS: Screenshots; Refusals): 2,000 captures and 5 GB per account
// (409 quota_exceeded with the numbers, before the file is read and again once it is encoded), 100 uploads
// in any 24 hours (429 rate_limited with retry_after), and parallel uploads that cannot pass either.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { captureUsesOf, holdCaptures, seedCaptureUses, uploadCapture } from '../helpers/captures.js';
import { signedInClient } from '../helpers/factories.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { catalogGame } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

const GB5 = 5 * 1024 ** 3;

describe('POST /screenshots: quota and daily cap', function () {
  this.timeout(90000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  let gameId = '';
  before(async () => {
    gameId = String((await catalogGame()).id);
  });
  const capturesOf = async (accountId: string) =>
    Number((await db()('screenshots').where({ account_id: accountId }).count({ n: '*' }))[0].n);
  const nothingLeft = async () => {
    expect(await db()('image_uploads')).to.have.length(0);
    expect(await db()('orphaned_media')).to.have.length(0);
  };

  describe('the quota', () => {
    it('answers 409 quota_exceeded with the numbers when 2,000 captures are held, before reading the file', async () => {
      const { site, account } = await signedInClient(app.client);
      await holdCaptures(account.id, 2000);
      const res = await uploadCapture(site, { game_id: gameId });
      expect(res.status, res.text).to.equal(409);
      expect(res.body.error).to.deep.include({
        code: 'conflict',
        reason: 'quota_exceeded',
        limit: 2000,
        count: 2000,
        bytes_limit: GB5,
        bytes: 2_000_000,
      });
      expect(res.body.error.message).to.match(/^Captures are limited to 2000/);
      // Refused before the upload was read: no use of the day is spent.
      expect(await captureUsesOf(account.id)).to.equal(0);
      await nothingLeft();
    });

    it('answers 409 when 5 GB are held, and lets an account over a lowered quota keep its captures', async () => {
      const full = await signedInClient(app.client);
      await holdCaptures(full.account.id, 1, GB5);
      const res = await uploadCapture(full.site, { game_id: gameId });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.include({ count: 1, bytes: GB5 });
      const over = await signedInClient(app.client);
      await holdCaptures(over.account.id, 2001);
      const refused = await uploadCapture(over.site, { game_id: gameId });
      expect(refused.body.error).to.include({ reason: 'quota_exceeded', count: 2001 });
      expect(await capturesOf(over.account.id)).to.equal(2001);
    });

    it('refuses the capture that would pass 5 GB once it is encoded, removing its stored files again', async () => {
      const { site, account } = await signedInClient(app.client);
      await holdCaptures(account.id, 1, GB5 - 10);
      const res = await uploadCapture(site, { game_id: gameId });
      expect(res.status, res.text).to.equal(409);
      expect(res.body.error).to.include({ reason: 'quota_exceeded', count: 1, bytes: GB5 - 10 });
      expect(await capturesOf(account.id)).to.equal(1);
      // It reached processing, so it used one of the day's uploads.
      expect(await captureUsesOf(account.id)).to.equal(1);
      await nothingLeft();
    });

    it('lets exactly the captures that fit through when uploads arrive in parallel', async () => {
      const { site, account } = await signedInClient(app.client);
      await holdCaptures(account.id, 1998);
      const answers = await Promise.all(Array.from({ length: 5 }, () => uploadCapture(site, { game_id: gameId })));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses, answers.map((res) => res.text).join('\n')).to.deep.equal([201, 201, 409, 409, 409]);
      for (const res of answers.filter((each) => each.status === 409)) {
        expect(res.body.error.reason).to.equal('quota_exceeded');
      }
      expect(await capturesOf(account.id)).to.equal(2000);
      expect(await db()('activity_items').where({ account_id: account.id })).to.have.length(2);
      await nothingLeft();
    });
  });

  describe('the daily cap', () => {
    it('answers 429 rate_limited with retry_after after 100 uploads in 24 hours, before reading the file', async () => {
      const { site, account } = await signedInClient(app.client);
      await seedCaptureUses(account.id, 100, 3600);
      const res = await uploadCapture(site, { game_id: gameId });
      expect(res.status, res.text).to.equal(429);
      expect(res.body.error.code).to.equal('rate_limited');
      // The oldest use leaves the window 23 hours from now.
      expect(res.body.error.retry_after).to.be.within(82_790, 82_801);
      expect(res.headers.get('retry-after')).to.equal(String(res.body.error.retry_after));
      expect(await captureUsesOf(account.id)).to.equal(100);
      expect(await capturesOf(account.id)).to.equal(0);
      await nothingLeft();
    });

    it('is a rolling window: uses older than 24 hours count no more', async () => {
      const { site, account } = await signedInClient(app.client);
      await seedCaptureUses(account.id, 100, 86_401);
      await seedCaptureUses(account.id, 99, 60);
      const res = await uploadCapture(site, { game_id: gameId });
      expect(res.status, res.text).to.equal(201);
      const next = await uploadCapture(site, { game_id: gameId });
      expect(next.status).to.equal(429);
    });

    it('lets exactly the uploads left through when they arrive in parallel', async () => {
      const { site, account } = await signedInClient(app.client);
      await seedCaptureUses(account.id, 97);
      const answers = await Promise.all(Array.from({ length: 5 }, () => uploadCapture(site, { game_id: gameId })));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses, answers.map((res) => res.text).join('\n')).to.deep.equal([201, 201, 201, 429, 429]);
      expect(await captureUsesOf(account.id)).to.equal(100);
      expect(await capturesOf(account.id)).to.equal(3);
      await nothingLeft();
    });

    it('gives nothing back when a capture is deleted: the cap is on uploading, not on holding', async () => {
      const { site, account } = await signedInClient(app.client);
      await seedCaptureUses(account.id, 99);
      const res = await uploadCapture(site, { game_id: gameId });
      expect(res.status).to.equal(201);
      expect((await site.delete(`/api/v1/screenshots/${res.body.data.id}`)).status).to.equal(200);
      expect((await uploadCapture(site, { game_id: gameId })).status).to.equal(429);
    });
  });
});
