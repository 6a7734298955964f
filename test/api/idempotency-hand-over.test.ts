// Idempotency-Key on a route that hands a job to a worker and waits for it (POST /screenshots, through the
// real image pipeline in this process): such a request commits before its wait, with the key's row
// naming the job, so a repeat after the holder died takes the request up from that job (one capture, one
// use of the cap, no second job) instead of running it again, and waits while the job may still run.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { boss } from '../../shared/platform/jobs/boss.js';
import { captureUsesOf, uploadCapture } from '../helpers/captures.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startImageWorker, testMedia, type ImageWorker } from '../helpers/image-worker.js';
import { catalogGame, namedPerson } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('Idempotency-Key on a route that waits for a worker', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  let worker: ImageWorker | null = null;
  before(async function () {
    this.timeout(60000);
    worker = await startImageWorker({ media });
  });
  after(() => worker?.stop());

  const imageJobs = (): Promise<Array<{ id: string; state: string }>> =>
    db()('pgboss.job').where({ name: 'image.process' }).select('id', 'state');

  it('commits before the wait with the job named on the key, and settles the key with the answer', async () => {
    const author = await namedPerson(app.client, 'hand_over');
    const game = await catalogGame();
    const key = randomUUID();
    // No worker for a while: the request waits for its job with the hand-over committed.
    await worker!.stop();
    worker = null;
    const upload = uploadCapture(author.site, { game_id: String(game.id) }, undefined, { 'idempotency-key': key });
    const held = await until(async () => (await db()('idempotency_keys').where({ key }).first()) ?? null, 20000);
    expect([held.state, held.job_queue]).to.deep.equal(['in_progress', 'image.process']);
    const [job] = await db()('pgboss.job').where({ id: held.job_id }).select('state');
    expect(job.state, 'the job committed with the key').to.equal('created');
    expect(await captureUsesOf(author.account.id), 'the cap’s use committed with the job').to.equal(1);
    const during = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, {
      'idempotency-key': key,
    });
    expect(during.body.error?.reason).to.equal('idempotency_in_progress');

    worker = await startImageWorker({ media });
    const first = await upload;
    expect(first.status, first.text).to.equal(201);
    const row = await db()('idempotency_keys').where({ key }).first();
    expect([row.state, row.job_queue, row.job_id]).to.deep.equal(['done', null, null]);
  });

  for (const archived of [false, true]) {
    const when = archived ? ' (its job archived: finished over 12 hours ago, within the key’s 24)' : '';
    it(`takes a request whose holder died after the hand-over up from its job: one capture, one use${when}`, async () => {
      const author = await namedPerson(app.client, archived ? 'taken_up_late' : 'taken_up');
      const game = await catalogGame();
      const key = randomUUID();
      const headers = { 'idempotency-key': key };
      const earlier = new Set((await imageJobs()).map((job) => job.id));
      const first = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, headers);
      expect(first.status, first.text).to.equal(201);
      const [job] = (await imageJobs()).filter((sent) => !earlier.has(sent.id));
      expect(job.state).to.equal('completed');
      // As the hand-over's commit left it when the process died before its answer: the key in progress,
      // naming the job; the job's work (the capture) and the cap's use committed.
      await db()('idempotency_keys').where({ key }).update({
        state: 'in_progress',
        status: null,
        headers: null,
        body: null,
        job_queue: 'image.process',
        job_id: job.id,
      });
      if (archived) {
        // As pg-boss's maintenance leaves a finished job after 12 hours.
        await db().raw('INSERT INTO pgboss.archive SELECT *, now() FROM pgboss.job WHERE id = ?', [job.id]);
        await db()('pgboss.job').where({ id: job.id }).delete();
      }
      const jobsBefore = (await imageJobs()).length;

      const repeat = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, headers);
      expect(repeat.status, repeat.text).to.equal(201);
      expect(repeat.headers.get('idempotent-replayed'), 'answered by the taken-up run itself').to.equal(null);
      expect(repeat.body).to.deep.equal(first.body);
      expect(await db()('screenshots').where({ account_id: author.account.id })).to.have.length(1);
      expect(await captureUsesOf(author.account.id)).to.equal(1);
      expect(await imageJobs(), 'no second job').to.have.length(jobsBefore);
      expect(await db()('image_uploads')).to.have.length(0);

      const replay = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, headers);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal(first.body);
    });
  }

  it('answers 409 in progress while the job handed over may still run', async () => {
    const author = await namedPerson(app.client, 'still_waiting');
    const game = await catalogGame();
    const key = randomUUID();
    const headers = { 'idempotency-key': key };
    const first = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, headers);
    expect(first.status, first.text).to.equal(201);
    // A job that has not run yet (due in an hour): its holder may still be waiting for it.
    const pending = await boss().send('image.process', { upload_id: randomUUID() }, { startAfter: 3600 });
    await db()('idempotency_keys').where({ key }).update({
      state: 'in_progress',
      status: null,
      headers: null,
      body: null,
      job_queue: 'image.process',
      job_id: pending,
    });
    const during = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, headers);
    expect(during.status, during.text).to.equal(409);
    expect(during.body.error.reason).to.equal('idempotency_in_progress');
    expect(await db()('screenshots').where({ account_id: author.account.id })).to.have.length(1);
    await boss().cancel('image.process', pending!);
  });
});
